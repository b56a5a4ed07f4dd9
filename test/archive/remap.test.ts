import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { remapHtml } from '../../src/archive/remap.js';
import { references, uniqueRefs } from '../../src/walk/references.js';

/** The remapper: archived references made relative, the rest absolute, `<base>` resolved and taken out, nothing else touched. */

const PAGE = 'http://h.test/docs/guide/page.html';
const ARCHIVED: Record<string, string> = {
  'http://h.test/docs/guide/next.html': 'next.html',
  'http://h.test/docs/': '../index.html',
  'http://h.test/img/a.png': '../../img/a.png',
  'http://h.test/img/a2.png': '../../img/a2.png',
  'http://h.test/style.css': '../../style.css',
};
const local = (url: string) => ARCHIVED[url];

describe('remapHtml', () => {
  it('makes archived references relative, keeps fragments, and makes the others absolute', () => {
    const html = `<p><a href="next.html#s2">next</a> <a href="../">up</a> <a href="/missing.html">gone</a> <a href="http://other.test/x">out</a> <a href="#top">top</a> <a href="mailto:a@b.test">mail</a></p>`;
    const out = remapHtml(html, PAGE, local);
    assert.match(out, /href="next\.html#s2"/);
    assert.match(out, /href="\.\.\/index\.html"/);
    assert.match(out, /href="http:\/\/h\.test\/missing\.html"/);
    assert.match(out, /href="http:\/\/other\.test\/x"/);
    assert.match(out, /href="mailto:a@b\.test"/, 'other schemes are left as they are');
    assert.match(out, /href="#top"/, 'a same-page fragment stays a fragment');
  });

  it('resolves against <base> and takes it out, so the copy does not point back to the web', () => {
    const html = '<html><head><base href="http://h.test/docs/guide/"><link rel="stylesheet" href="/style.css"></head><body><img src="../../img/a.png" srcset="../../img/a.png 1x, ../../img/a2.png 2x"><a href="next.html">n</a></body></html>';
    const out = remapHtml(html, 'http://h.test/elsewhere/index.html', local);
    assert.doesNotMatch(out, /<base/);
    assert.match(out, /<head><link rel="stylesheet" /, 'nothing is left where <base> was');
    assert.match(out, /href="next\.html"/);
    assert.match(out, /src="\.\.\/\.\.\/img\/a\.png"/);
    assert.match(out, /srcset="\.\.\/\.\.\/img\/a\.png 1x, \.\.\/\.\.\/img\/a2\.png 2x"/);
    assert.match(out, /href="\.\.\/\.\.\/style\.css"/);
  });

  it('changes only the attribute values: an XHTML page keeps its declaration, self-closing tags and namespaces', () => {
    const xhtml = '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title></head><body><br/><a href="http://h.test/docs/guide/next.html" epub:type="noteref">n</a><img src="/nothing.png" alt=""/></body></html>';
    const out = remapHtml(xhtml, PAGE, local);
    const expected = xhtml.replace('href="http://h.test/docs/guide/next.html"', 'href="next.html"').replace('src="/nothing.png"', 'src="http://h.test/nothing.png"');
    assert.equal(out, expected);
  });

  it('a <base> after references, as hostile pages have it, is taken out, and every edit lands where it belongs', () => {
    const html = '<a href="/one.html">1</a><base href="http://h.test/docs/guide/"><a href="next.html">2</a><img src="/two.png">';
    const out = remapHtml(html, PAGE, local);
    assert.equal(out.replace(/ (href|src)="[^"]*"/g, ' $1=…'), '<a href=…>1</a><a href=…>2</a><img src=…>', 'the page\'s own markup, unchanged around the edits');
    assert.doesNotMatch(out, /<base/);
    assert.match(out, /href="next\.html"/);
  });

  it('a comma in a link is part of its address: only srcset is a list', () => {
    const out = remapHtml('<a href="/a,b.html">x</a><img srcset="/img/a.png 1x,/img/a2.png 2x">', PAGE, local);
    assert.match(out, /href="http:\/\/h\.test\/a,b\.html"/);
    assert.match(out, /srcset="\.\.\/\.\.\/img\/a\.png 1x, \.\.\/\.\.\/img\/a2\.png 2x"/);
  });

  it('escapes what it writes into an attribute', () => {
    const out = remapHtml(`<a href='/x?a="1"&b=2'>x</a>`, PAGE, () => undefined);
    assert.match(out, /href="http:\/\/h\.test\/x\?a=%221%22&amp;b=2"/);
  });
});

describe('uniqueRefs', () => {
  it('lists links and what a page needs to display, once each, requisites marked', () => {
    const html = '<link rel="stylesheet" href="/s.css"><link rel="canonical" href="/c.html"><a href="a.html">a</a><a href="a.html#x">again</a><img src="i.png"><script src="/j.js"></script><iframe src="f.html"></iframe><a href="javascript:alert(1)">x</a>';
    const refs = uniqueRefs(references(html, 'http://h.test/d/p.html'));
    assert.deepEqual(refs, [
      { url: 'http://h.test/s.css', kind: 'requisite' },
      { url: 'http://h.test/c.html', kind: 'page' },
      { url: 'http://h.test/d/a.html', kind: 'page' },
      { url: 'http://h.test/d/i.png', kind: 'requisite' },
      { url: 'http://h.test/j.js', kind: 'requisite' },
      { url: 'http://h.test/d/f.html', kind: 'page' },
    ]);
  });
});
