import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, escapeXml, safeHref } from '../../src/html/escape.js';

/** What a page or a user's file may put into the HTML and XML we write, made inert. */

test('each of the five characters HTML reads as markup becomes its entity; the rest is left as it is', () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  assert.equal(escapeHtml('plain text, é and ✓'), 'plain text, é and ✓');
  assert.equal(escapeHtml('&amp;'), '&amp;amp;', 'an entity in the text is text, shown as written');
});

test('a link we write keeps http, https and relative references, and makes any other scheme inert', () => {
  for (const kept of ['http://a.test/x', 'HTTPS://a.test/', '/path', 'page.html', '#part', '?q=1', 'page.html?next=javascript:alert(1)', '//a.test/x']) {
    assert.equal(safeHref(kept), escapeHtml(kept), kept);
  }
  for (const inert of ['javascript:alert(1)', 'JavaScript:alert(1)', '  javascript:alert(1)', '\tjavascript:x', 'data:text/html,<script>x</script>', 'vbscript:x', 'file:///etc/passwd', 'mailto:a@b.test']) {
    assert.equal(safeHref(inert), '#', inert);
  }
  assert.equal(safeHref('http://a.test/?a=1&b="2"'), 'http://a.test/?a=1&amp;b=&quot;2&quot;', 'kept, and escaped for a quoted attribute');
});

test('XML we write loses the characters XML 1.0 forbids and escapes the five it reads as markup', () => {
  assert.equal(escapeXml(`a\u0000b\u0001c\u000bd\ufffee\ud800f`), 'abcdef');
  assert.equal(escapeXml('tab\tline\ncr\r'), 'tab\tline\ncr\r');
  assert.equal(escapeXml(`<x a="1" b='2'>&</x>`), '&lt;x a=&quot;1&quot; b=&apos;2&apos;&gt;&amp;&lt;/x&gt;');
  assert.equal(escapeXml('\u{1F600} é'), '\u{1F600} é');
});
