import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractBlocks, blockTags } from '../../src/html/blocks.js';
import { parseDom } from '../../src/html/dom.js';
import { UserError } from '../../src/errors.js';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

const texts = (html: string, blocks?: string[]) => extractBlocks(html, { blocks }).map((b) => b.text);

test('each p is a block; whitespace collapses and entities decode', () => {
  const bs = extractBlocks('<p>  It&#8217;s\n\t a&nbsp;fine &amp; <b>bold</b>&mdash;day&#x2026; </p><P>Up<br>per</P>');
  assert.deepEqual(
    bs.map((b) => [b.index, b.tag, b.text]),
    [
      [0, 'p', 'It’s a fine & bold—day…'],
      [1, 'p', 'Up per'],
    ],
  );
});

test('scripts, styles, templates, comments and noscript never reach the text', () => {
  const html =
    '<p>One <script>var s = "</p><p>fake";</script>two<style>p{}</style></p>' +
    '<!-- <p>gone</p> --><template><p>inert</p></template><noscript><p>Enable JavaScript</p></noscript>' +
    '<p>three <SCRIPT type="x">1 < 2</SCRIPT>four</p>';
  assert.deepEqual(texts(html), ['One two', 'three four']);
});

test('a table is one block, its cells separated, its paragraphs read once as their own blocks', () => {
  const bs = extractBlocks('<table><tr><td>Name</td><td>Value</td></tr><tr><td>a<p>Inner paragraph.</p>b</td></tr></table>');
  assert.deepEqual(
    bs.map((b) => [b.tag, b.text]),
    [
      ['table', 'Name Value a b'],
      ['p', 'Inner paragraph.'],
    ],
  );
});

test('a table holding another table is rejected as nested-table; the inner one stands', () => {
  const bs = extractBlocks('<table><tr><td>outer<table><tr><td>inner</td></tr></table></td></tr></table>');
  assert.deepEqual(
    bs.map((b) => [b.tag, b.text, b.rejected]),
    [
      ['table', 'outer', 'nested-table'],
      ['table', 'inner', undefined],
    ],
  );
  // Even when all its text sits in the inner table, the rejection is kept with its reason.
  const layout = extractBlocks('<table><tr><td><table><tr><td>x</td></tr></table></td></tr></table>');
  assert.deepEqual(layout.map((b) => [b.text, b.rejected]), [['', 'nested-table'], ['x', undefined]]);
});

test('a list or a table after an unclosed p is not read as part of that paragraph', () => {
  assert.deepEqual(texts('<p>Intro text<ul><li>Home</li><li>About</li></ul>after<p>Next'), ['Intro text', 'Next']);
  assert.deepEqual(texts('<p>Before<table><tr><td>cell</td></tr></table>'), ['Before', 'cell']);
});

test('extra block tags: a div keeps only its own text, never its inner blocks', () => {
  const html = '<div class="para">Own words <p>para</p> more own <ul><li>item</li></ul></div>';
  assert.deepEqual(texts(html), ['para']);
  assert.deepEqual(
    extractBlocks(html, { blocks: ['div', 'LI'] }).map((b) => [b.tag, b.text]),
    [
      ['div', 'Own words more own'],
      ['p', 'para'],
      ['li', 'item'],
    ],
  );
});

test('link density counts non-space characters inside <a href> only', () => {
  const [b] = extractBlocks('<p><a href="/x">abcd</a> efgh <a name="top">ijkl</a></p>');
  assert.equal(b!.linkDensity, 4 / 12);
  const [menu] = extractBlocks('<p><a href="/">Home</a> | <a href="/a">About</a></p>');
  assert.equal(menu!.linkDensity, 9 / 10);
});

test('splitAtBlankLines: a blank line of two <br> ends a paragraph, one <br> does not; link density is per paragraph', () => {
  const html = '<div>First line<br>same paragraph<br>\n <br>Second <a href="/a">paragraph</a><br><br><br><a href="/m">Menu</a></div>';
  const split = extractBlocks(html, { blocks: ['div'], splitAtBlankLines: true });
  assert.deepEqual(split.map((b) => b.text), ['First line same paragraph', 'Second paragraph', 'Menu']);
  assert.deepEqual(split.map((b) => b.linkDensity), [0, 9 / 15, 1]);
  assert.deepEqual(split.map((b) => b.index), [0, 1, 2]);
  assert.deepEqual(texts(html, ['div']), ['First line same paragraph Second paragraph Menu'], 'off by default: the thesis reads the div whole');
});

test('bullets: a mark and a space that open a line are its bullet; each piece cut at a blank line keeps its own', () => {
  const html = '<div>* fix the lamp<br>* paint the rail<br><br>\u2022 two eggs<br>a * inside<br><br>no list here</div>';
  const split = extractBlocks(html, { blocks: ['div'], splitAtBlankLines: true });
  assert.deepEqual(split.map((b) => b.bullets), ['**', '\u2022', undefined]);
  assert.deepEqual(extractBlocks(html, { blocks: ['div'] }).map((b) => b.bullets), ['**\u2022'], 'one block when not cut');
});

test('path names the block and its nearest ancestors by id or first class', () => {
  const [b] = extractBlocks('<body><div id="main"><section class="story long"><article><div><p>x</p></div></article></section></div></body>');
  assert.equal(b!.path, 'section.story>article>div>p');
});

test('empty blocks are left out; a parsed Dom can be passed instead of a string', () => {
  const dom = parseDom('<p> </p><p><img src="a.png"></p><p>text</p>');
  assert.deepEqual(extractBlocks(dom).map((b) => [b.index, b.text]), [[0, 'text']]);
});

test('the doctype and an XML declaration are not text of the page', () => {
  const dom = parseDom('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html><head><title>Title</title></head><body><p>text</p></body></html>');
  assert.deepEqual(dom.structuredText.split(/\s+/).filter(Boolean), ['Title', 'text']);
});

test('deep nesting does not overflow the stack', () => {
  const depth = 40_000;
  const html = '<div>'.repeat(depth) + '<p>deep</p>' + '</div>'.repeat(depth);
  assert.deepEqual(texts(html), ['deep']);
});

test('a bad tag name in the block list is a UserError naming the value', () => {
  assert.throws(() => blockTags(['div', 'p>a']), (e: unknown) => e instanceof UserError && e.value === 'p>a');
  assert.deepEqual([...blockTags([' Div ', ''])], ['p', 'table', 'div']);
});

test('a Sherlock Holmes chapter: every paragraph is a block, narrative in full', { skip: SHARED }, () => {
  const file = sharedPath(
    'corpus/standardebooks-arthur-conan-doyle_the-adventures-of-sherlock-holmes/text/a-scandal-in-bohemia.xhtml',
  );
  const bs = extractBlocks(readFileSync(file, 'utf8'));
  const html = readFileSync(file, 'utf8');
  assert.equal(bs.length, (html.match(/<p[\s>]/g) ?? []).length);
  assert.match(bs[0]!.text, /^To Sherlock Holmes she is always the woman\. I have seldom heard him mention her/);
  assert.ok(bs.every((b) => b.tag === 'p' && b.linkDensity === 0 && !b.rejected));
});

test('the Debian handbook writes prose in div.para: --blocks div finds it, and no text twice', { skip: SHARED }, () => {
  const html = readFileSync(sharedPath('corpus/debian-handbook/apt.html'), 'utf8');
  const plain = extractBlocks(html);
  const withDiv = extractBlocks(html, { blocks: ['div'] });
  const para = withDiv.filter((b) => b.path.endsWith('div.para'));
  assert.ok(para.length > 20, `${para.length} div.para blocks`);
  assert.ok(para.some((b) => b.text.startsWith('APT is the abbreviation for Advanced Packaging Tool.')));
  assert.ok(!plain.some((b) => b.text.startsWith('APT is the abbreviation')));
  // Each paragraph of p-only extraction is still there, unchanged, and is not repeated in a div.
  const all = withDiv.map((b) => b.text);
  for (const b of plain) assert.ok(all.includes(b.text), b.text);
  for (const b of plain) assert.ok(!withDiv.some((d) => d.tag === 'div' && d.text.includes(b.text) && b.text.length > 30), b.text);
});

test('elements left open keep their place, as in a browser', () => {
  const bs = extractBlocks('<html><body><div class="story"><section><p>Last words, never closed');
  assert.deepEqual(bs.map((b) => [b.path, b.text]), [['div.story>section>p', 'Last words, never closed']]);
  // A stray end tag closes what was opened inside its element.
  assert.deepEqual(texts('<div><p>one<span>two</div><p>three'), ['onetwo', 'three']);
});

test('maxLinkDensity rejects link-heavy blocks with the reason; off by default', () => {
  const html = '<p><a href="/">Home</a> | <a href="/a">About</a></p><p>Plain text with <a href="/x">one link</a> inside it.</p>';
  assert.deepEqual(extractBlocks(html).map((b) => b.rejected), [undefined, undefined]);
  assert.deepEqual(extractBlocks(html, { maxLinkDensity: 0.5 }).map((b) => b.rejected), ['link-density', undefined]);
  assert.throws(() => extractBlocks(html, { maxLinkDensity: 2 }), UserError);
});

test('a head that is never closed does not swallow the page: what is not head content starts the body', () => {
  assert.deepEqual(texts('<html><head><title>x</title><body><p>Text one.</p></body></html>'), ['Text one.']);
  assert.deepEqual(texts('<html><head><title>x</title><meta charset="utf-8"><p>Text two.</p><p>Three.</p>'), ['Text two.', 'Three.']);
  assert.deepEqual(texts('<head><title>Not text</title>\n<link rel="x" href="y">\nLoose words.<p>Four.</p>'), ['Four.']);
  assert.deepEqual(texts('<html><head><title>Title only</title></head><body><p>Five.</p></body></html>'), ['Five.'], 'a closed head is left as it is');
});

test('an inline element closed while a block opened inside it is open: the block keeps its words, as in a browser', () => {
  assert.deepEqual(texts('<body><b><p>Some words,</b> and the rest.</p></body>'), ['Some words, and the rest.']);
  assert.deepEqual(texts('<span class="x>y"><p>One <i>two</span> three.</p>'), ['One two three.'], 'a > inside a quoted attribute is not the end of the tag');
  assert.deepEqual(texts('<div><p>a <b>bold</b> word.</p><p>Next <em>one</em>.</p></div>'), ['a bold word.', 'Next one.'], 'well-nested end tags stay');
  assert.deepEqual(texts('<div><p>a <b>bold</div> tail</p>'), ['a bold'], 'a block end tag still closes the paragraph, as a browser does');
});
