import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractLinks, refreshTarget } from '../../src/html/links.js';
import { UserError } from '../../src/errors.js';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

const PAGE = 'https://example.org/dir/page.html?q=1';
const urls = (html: string, url = PAGE) => extractLinks(html, { url }).links.map((l) => l.url);

test('a, area, frame and iframe links resolve against the page; img, script and link do not count', () => {
  const html =
    '<a href="a.html">A</a><map><area href="/b" alt="B area"></map><frameset><frame src="c.html"></frameset>' +
    '<iframe src="//cdn.example.net/d"></iframe><img src="e.png"><link rel=stylesheet href="f.css"><script src="g.js"></script>';
  assert.deepEqual(urls(html), [
    'https://example.org/dir/a.html',
    'https://example.org/b',
    'https://example.org/dir/c.html',
    'https://cdn.example.net/d',
  ]);
});

test('the first <base href> wins and is itself resolved against the page URL', () => {
  const r = extractLinks('<base href="/other/"><base href="http://wrong.example/"><a href="x">x</a>', { url: PAGE });
  assert.equal(r.base, 'https://example.org/other/');
  assert.deepEqual(r.links.map((l) => l.url), ['https://example.org/other/x']);
  // A base without href does not count; a javascript: base is refused, as browsers refuse it.
  assert.equal(extractLinks('<base target="_top"><base href="/b/">', { url: PAGE }).base, 'https://example.org/b/');
  assert.equal(extractLinks('<base href="javascript:alert(1)"><a href="x">', { url: PAGE }).base, PAGE);
});

test('non-http(s) schemes are dropped, fragments removed, duplicates kept once in order', () => {
  const html =
    '<a href="javascript:void(0)">js</a><a href="mailto:a@b.c">m</a><a href="tel:123">t</a>' +
    '<a href="data:text/html,hi">d</a><a href="ftp://x.org/f">f</a><a href="b.html#top">b</a>' +
    '<a href="  JavaScript:x">sneaky</a><a href="b.html#end">b again</a><a href="#only">frag</a><a href="HTTP://EXAMPLE.ORG/Z">z</a>';
  assert.deepEqual(urls(html), ['https://example.org/dir/b.html', PAGE, 'http://example.org/Z']);
});

test('entities in href are decoded and whitespace inside the URL is handled as browsers do', () => {
  assert.deepEqual(urls('<a href=" /s?a=1&amp;b=2\n">s</a><a href="/p?x=&lt;y&gt;">p</a>'), [
    'https://example.org/s?a=1&b=2',
    'https://example.org/p?x=%3Cy%3E',
  ]);
});

test('rel=nofollow is per link; a URL is nofollow only when every occurrence is', () => {
  const r = extractLinks(
    '<a href="/a" rel="external NoFollow">a</a><a href="/b" rel="nofollow">b</a><a href="/b">b2</a><a href="/c" rel="nofollowing">c</a>',
    { url: PAGE },
  );
  assert.deepEqual(r.links.map((l) => [l.url.slice(19), l.nofollow]), [
    ['/a', true],
    ['/b', false],
    ['/c', false],
  ]);
});

test('anchor text: the link text, else an image alt; area alt; frame title', () => {
  const r = extractLinks(
    '<a href="/1"> Read <b>the</b>\n story </a><a href="/2"><img alt="Logo"></a><area href="/3" alt="Map"><iframe src="/4" title="Video"></iframe><a href="/5"></a>',
    { url: PAGE },
  );
  assert.deepEqual(r.links.map((l) => [l.tag, l.anchorText]), [
    ['a', 'Read the story'],
    ['a', 'Logo'],
    ['area', 'Map'],
    ['iframe', 'Video'],
    ['a', ''],
  ]);
});

test('meta robots: noindex, nofollow, none; other robots names are not ours', () => {
  const robots = (html: string) => extractLinks(html, { url: PAGE }).robots;
  assert.deepEqual(robots('<meta name="ROBOTS" content="NOINDEX, follow">'), { noindex: true, nofollow: false });
  assert.deepEqual(robots('<meta name="robots" content="none">'), { noindex: true, nofollow: true });
  assert.deepEqual(robots('<meta name="robots" content="index"><meta name="robots" content="nofollow">'), { noindex: false, nofollow: true });
  assert.deepEqual(robots('<meta name="googlebot" content="noindex,nofollow">'), { noindex: false, nofollow: false });
});

test('meta refresh: the target resolved against the base; a bare delay is no target', () => {
  const r = extractLinks('<base href="https://example.org/x/"><meta http-equiv="Refresh" content="5; URL=\'next.html\'">', { url: PAGE });
  assert.equal(r.refresh, 'https://example.org/x/next.html');
  assert.equal(extractLinks('<meta http-equiv="refresh" content="30">', { url: PAGE }).refresh, undefined);
  assert.equal(extractLinks('<meta http-equiv="refresh" content="0;url=javascript:x()">', { url: PAGE }).refresh, undefined);
});

test('refreshTarget follows the HTML parsing steps', () => {
  assert.equal(refreshTarget('0; url=/a'), '/a');
  assert.equal(refreshTarget('0;URL = "/b" trailing'), '/b');
  assert.equal(refreshTarget('1.5, /c'), '/c');
  assert.equal(refreshTarget('.5 /d'), '/d');
  assert.equal(refreshTarget('0; "/e"'), '/e');
  assert.equal(refreshTarget("0; u'x'"), "u'x'");
  assert.equal(refreshTarget('0; url.html'), 'url.html');
  assert.equal(refreshTarget('now; url=/f'), undefined);
  assert.equal(refreshTarget('5x; url=/g'), undefined);
  assert.equal(refreshTarget('5'), undefined);
});

test('noscript links count: a crawler runs no script', () => {
  assert.deepEqual(urls('<noscript><a href="/nojs">plain</a></noscript>'), ['https://example.org/nojs']);
});

test('a page URL that is not absolute is a UserError', () => {
  assert.throws(() => extractLinks('<a href="x">', { url: 'page.html' }), (e: unknown) => e instanceof UserError && e.value === 'page.html');
});

test('a Dive Into Python 3 chapter: its relative links resolve into the book', { skip: SHARED }, () => {
  const html = readFileSync(sharedPath('corpus/dive-into-python-3/index.html'), 'utf8');
  const r = extractLinks(html, { url: 'http://diveintopython3.local/index.html' });
  const local = r.links.filter((l) => l.url.startsWith('http://diveintopython3.local/'));
  assert.ok(local.some((l) => l.url === 'http://diveintopython3.local/whats-new.html'));
  assert.equal(new Set(r.links.map((l) => l.url)).size, r.links.length);
  assert.ok(r.links.every((l) => /^https?:/.test(l.url) && !l.url.includes('#')));
});
