import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'node-html-parser';
import { remapHtml } from '../../src/archive/remap.js';
import { extract } from '../../src/extract/index.js';
import { isElement, parseDom, type HTMLElement } from '../../src/html/dom.js';
import { extractLinks } from '../../src/html/links.js';
import { capNesting, flattenBeyond, HTML5_RAW_TEXT, MAX_DEPTH } from '../../src/html/nesting.js';
import { DEFAULT_HEURISTICS } from '../../src/text/index.js';
import { references } from '../../src/walk/references.js';
import { BOTTOM, deepPage, STORY } from '../support/deep.js';

/**
 * A page nested 40,000 elements deep (a hostile page: 44 KB of divs overflowed the stack at 4,000;
 * deeper than this, it would hold more than MAX_ELEMENTS and be read only up to there):
 * parsed with no element deeper than MAX_DEPTH, the wrappers past the limit laid flat and the
 * paragraph at the bottom kept whole, its story judged by both extractors, and the link at the
 * bottom of the nesting found by every reader of links.
 */

const URL = 'http://deep.test/deep.html';
const LEAF = 'http://deep.test/leaf.html';

/** How many elements deep the tree goes, counted without recursion. */
function depthOf(root: HTMLElement): number {
  let max = 0;
  const stack: { el: HTMLElement; depth: number }[] = [{ el: root, depth: 0 }];
  while (stack.length) {
    const { el, depth } = stack.pop()!;
    max = Math.max(max, depth);
    for (const c of el.childNodes) if (isElement(c)) stack.push({ el: c, depth: depth + 1 });
  }
  return max;
}

const DEEP = deepPage(40_000);

describe('a page nested 40,000 elements deep', () => {
  const dom = parseDom(DEEP);

  it('parses with no element deeper than the limit, and the paragraph at the bottom kept whole', () => {
    assert.equal(depthOf(dom), MAX_DEPTH);
    assert.equal(dom.querySelectorAll('p').at(-1)!.text, `${BOTTOM} the leaf`);
    // The parser's own getters recurse: they work on the bounded tree.
    assert.ok(dom.structuredText.includes(BOTTOM));
  });

  it('is judged by both extractors: the story at its top is kept, the paragraph at the bottom read', () => {
    const thesis = extract(dom, 'thesis', { heuristics: DEFAULT_HEURISTICS });
    assert.deepEqual(thesis.kept.map((k) => k.text), STORY);
    // It ends with a link's words, not a stop: the thesis's capitalization rule rejects it.
    assert.deepEqual(thesis.rejected, { capitalization: 1 });
    assert.deepEqual(extract(dom, 'narrative', { heuristics: DEFAULT_HEURISTICS }).kept.map((k) => k.text), STORY);
  });

  it('keeps the link at the bottom of the nesting, for the walker and for the reference scan', () => {
    assert.deepEqual(extractLinks(dom, { url: URL }).links.map((l) => [l.url, l.anchorText]), [[LEAF, 'the leaf']]);
    assert.deepEqual(references(DEEP, URL).map((r) => r.url), [LEAF]);
  });

  it('is archived with that link remapped and every other byte as it came', () => {
    const out = remapHtml(DEEP, URL, (u) => (u === LEAF ? 'leaf.html' : undefined));
    assert.equal(out, DEEP.replace('href="/leaf.html"', 'href="leaf.html"'));
  });
});

describe('capNesting', () => {
  it('leaves a page within the limit as it is', () => {
    const page = deepPage(MAX_DEPTH - 10);
    assert.equal(capNesting(page).html, page);
    const p = parseDom(page).querySelectorAll('p').at(-1)!;
    assert.equal(p.text, `${BOTTOM} the leaf`, 'the paragraph at the bottom keeps its text');
  });

  it('past the limit, closes a wrapper at once (attributes kept, its end tag gone) and keeps shallow content whole', () => {
    // max 4, keep 1: from the third level on, an element whose content nests more than one deep is a wrapper.
    const page = '<div id="a"><div id="b"><div id="c"><p class="deep">Words <a href="/x">x</a></p></div><p>More</p></div></div><p>After</p>';
    const capped = capNesting(page, { max: 4, keep: 1 });
    assert.equal(capped.html, '<div id="a"><div id="b"><div id="c"></div><p class="deep">Words <a href="/x">x</a></p><p>More</p></div></div><p>After</p>');
    // Places in the rewritten page map back to the page as given.
    for (const s of ['href="/x"', 'More', '<p>After</p>']) {
      const at = capped.html.indexOf(s);
      const back = capped.source(at, at + s.length);
      assert.equal(page.slice(back.start, back.end), s);
    }
    // What the wrapper's end tag closed implicitly is closed where it was.
    assert.equal(capNesting('<div><div><div id="c"><section><p>Words</div>After</div></div>', { max: 4, keep: 1 }).html, '<div><div><div id="c"></div><section><p>Words</p></section>After</div></div>');
  });

  it('reads a long list of unclosed items, rows and cells as long, not deep', () => {
    const items = Array.from({ length: 2 * MAX_DEPTH }, (_, i) => `<li>item ${i}`).join('');
    const rows = Array.from({ length: 2 * MAX_DEPTH }, (_, i) => `<tr><td>cell ${i}<td>next`).join('');
    const page = `<ul>${items}</ul><table>${rows}</table><p>one<p>two`;
    assert.equal(capNesting(page).html, page);
    const lis = parseDom(page).querySelectorAll('li');
    assert.equal(lis.length, 2 * MAX_DEPTH);
    assert.equal(lis.at(-1)!.text, `item ${2 * MAX_DEPTH - 1}`);
  });

  it('skips what parse5 reads as text: tags inside a script or a textarea open nothing', () => {
    const page = `<script>${'<div>'.repeat(MAX_DEPTH + 5)}</script><textarea>${'<div>'.repeat(MAX_DEPTH + 5)}</textarea><p>x</p>`;
    assert.equal(capNesting(page, { rawText: HTML5_RAW_TEXT }).html, page);
    assert.notEqual(capNesting(page).html, page, 'without raw text, the same tags are markup');
  });
});

describe('flattenBeyond', () => {
  it('bounds a tree the scan misjudged: deeper elements laid side by side, text kept in order', () => {
    // The parser alone, with no scan before it: 20,000 levels overflow its text getter.
    const root = parse(`${'<span>'.repeat(20_000)}<b>bottom</b>${'</span>'.repeat(20_000)} after`);
    assert.throws(() => root.text, RangeError);
    flattenBeyond(root, 100);
    assert.equal(depthOf(root), 100);
    assert.equal(root.text, 'bottom after');
    // An element at the limit keeps its text: the <b> at the bottom is still bold.
    assert.equal(root.querySelector('b')!.text, 'bottom');
  });
});
