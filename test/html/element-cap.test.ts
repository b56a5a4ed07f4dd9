import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elementsCut, parseBytes, parseDom } from '../../src/html/index.js';
import { MAX_ELEMENTS } from '../../src/html/limits.js';

/** A page of `cells` table cells after one paragraph; its html, body and table add three elements. */
const table = (cells: number, after = '') =>
  `<html><body><p>First.</p><table><tr>${'<td>9</td>'.repeat(cells)}</tr></table>${after}</body></html>`;

const elementsIn = (dom: ReturnType<typeof parseDom>) => dom.querySelectorAll('*').length;

test('a page of MAX_ELEMENTS elements is read whole', () => {
  // html, body, p, table, tr: five elements besides the cells.
  const dom = parseDom(table(MAX_ELEMENTS - 5));
  assert.equal(elementsCut(dom), false);
  assert.equal(elementsIn(dom), MAX_ELEMENTS);
});

test('a page of more elements is read up to its MAX_ELEMENTS-th, the rest left out, and says so', () => {
  const html = table(MAX_ELEMENTS, '<p>Past the cap.</p>');
  for (const dom of [parseDom(html), parseBytes(new TextEncoder().encode(html), 'text/html')]) {
    assert.equal(elementsCut(dom), true);
    assert.equal(elementsIn(dom), MAX_ELEMENTS);
    assert.equal(dom.querySelector('p')!.text, 'First.');
    assert.doesNotMatch(dom.text, /Past the cap/);
  }
});
