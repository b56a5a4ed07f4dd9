import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFootnoteLine, plainTypography, withoutCitations } from '../../src/text/typography.js';

test('typography: curly quotes straight, every space one space, invisible marks gone', () => {
  assert.equal(plainTypography('\u201CCome in,\u201D she said\u2019s\u00A0way\u200A\u2009now'), '"Come in," she said\'s way now');
  assert.equal(plainTypography('light\u00ADhouse\u2060keeper\u200B \uFEFFwatch'), 'lighthousekeeper watch');
  assert.equal(plainTypography('  a \t\n b  '), 'a b');
});

test('citation markers go with the space before them; brackets that are text stay', () => {
  assert.equal(withoutCitations('The tower was built in 1840.[3] It burned.[citation needed] Then [a] note[12].'), 'The tower was built in 1840. It burned. Then note.');
  assert.equal(withoutCitations('He said [quietly] that it was late.'), 'He said [quietly] that it was late.');
});

test('footnote lines start with a back-link caret or arrow, or a bracketed number', () => {
  assert.ok(isFootnoteLine('^ Smith, J. (1999). Lights of the coast.'));
  assert.ok(isFootnoteLine('↑ See the keeper\'s log.'));
  assert.ok(isFootnoteLine('[4] Harbour records, vol. 2.'));
  assert.ok(!isFootnoteLine('The keeper climbed the stairs.'));
});
