import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createNode,
  createSection,
  escapeText,
  escapeValue,
  parseMarkup,
  serializeMarkup,
  type MarkupDocument,
} from '../../src/markup/index.js';
import { withoutPositions } from './positions.js';

test('the canonical form: heads on their own line, one sentence a line, blank lines between nodes', () => {
  const text =
    '{\\section \\display \\id="begin" {\\node \\meta="none,recited , start" {\\sen I am revisiting\n a reading error.} ' +
    '{\\sen The machine demands language.} } {\\node \\meta="vision, blindness" {\\sen But what could this reveal?}}}' +
    '{\\node \\meta="" \\mood="odd" plain words {\\note \\by="me" see {\\ref x}}}{\\section}';
  assert.equal(
    serializeMarkup(parseMarkup(text)),
    [
      '{\\section \\display \\id="begin"',
      '  {\\node \\meta="none, recited, start"',
      '    {\\sen I am revisiting a reading error.}',
      '    {\\sen The machine demands language.}',
      '  }',
      '',
      '  {\\node \\meta="vision, blindness"',
      '    {\\sen But what could this reveal?}',
      '  }',
      '}',
      '',
      '{\\node \\mood="odd"',
      '  plain words',
      '  {\\note \\by="me" see {\\ref x}}',
      '}',
      '',
      '{\\section}',
      '',
    ].join('\n'),
  );
});

test('escapes are written so that the text reads back unchanged', () => {
  assert.equal(escapeText('a {b} \\ "c"'), 'a \\{b\\} \\\\ "c"');
  assert.equal(escapeValue('say "hi" \\ now\r\nthen'), 'say \\"hi\\" \\\\ now then');
  const text = '{\\node \\meta="q\\"uote, back\\\\slash" {\\sen \\{ \\} \\\\ " “curly” 海 🌊}}';
  const doc = parseMarkup(text);
  assert.equal(serializeMarkup(doc), '{\\node \\meta="q\\"uote, back\\\\slash"\n  {\\sen \\{ \\} \\\\ " “curly” 海 🌊}\n}\n');
  assert.deepEqual(withoutPositions(parseMarkup(serializeMarkup(doc))), withoutPositions(doc));
});

test('an empty sentence and an empty document', () => {
  assert.equal(serializeMarkup(parseMarkup('{\\node {\\sen  }}')), '{\\node\n  {\\sen}\n}\n');
  assert.equal(serializeMarkup({ kind: 'document', items: [] }), '');
});

test('documents built in code with createNode serialize and read back the same', () => {
  const node = createNode({ meta: [' sea ', 'light\nhouse', 'a,b', ''], sentences: ['The lamp {turned}.', ' Waves\n broke. '] });
  assert.deepEqual(node.meta, ['sea', 'light house', 'a', 'b']);
  assert.deepEqual(node.sentences, ['The lamp {turned}.', 'Waves broke.']);
  const doc: MarkupDocument = {
    kind: 'document',
    items: [createSection([node], [{ name: 'id', value: 'harbour' }]), createNode({ meta: ['x'], sentences: [] })],
  };
  const text = serializeMarkup(doc);
  assert.deepEqual(withoutPositions(parseMarkup(text)), doc);
  assert.equal(serializeMarkup(parseMarkup(text)), text);
});
