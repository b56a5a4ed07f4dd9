import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'node-html-parser';
import { extractBlocks } from '../../src/html/blocks.js';
import { extractLinks } from '../../src/html/links.js';
import { evaluateBlock } from '../../src/text/heuristics.js';
import { isIndexed, loadDemoPages, type DemoPage } from '../../src/demo/pages.js';

/*
 * The demo web is written so that the thesis's heuristics (3.2.3) draw a clean line through it:
 * on every page the blocks they accept are exactly the <p>s inside its <article>, and everything
 * else (menus, bylines, copyright lines, captions, prices, tables, keyword soup) is rejected.
 */

const pages = loadDemoPages();
const fold = (s: string) => s.replace(/\s+/g, ' ').trim();
const html = (p: DemoPage) => readFileSync(p.file, 'utf8');

function articleParagraphs(p: DemoPage): string[] {
  return parse(html(p))
    .querySelectorAll('article p')
    .map((el) => fold(el.text));
}

function accepted(p: DemoPage): string[] {
  return extractBlocks(html(p))
    .filter((b) => !b.rejected && evaluateBlock(b.text).accepted)
    .map((b) => fold(b.text));
}

const acceptedByHost = new Map<string, number>();
for (const p of pages) acceptedByHost.set(p.host, (acceptedByHost.get(p.host) ?? 0) + accepted(p).length);

describe('demo web content', () => {
  test('six sites, 25 to 40 HTML pages, each a UTF-8 page in its site’s template', () => {
    assert.equal(new Set(pages.map((p) => p.host)).size, 6);
    assert.ok(pages.length >= 25 && pages.length <= 40, `${pages.length} pages`);
    for (const p of pages) {
      const h = html(p);
      assert.match(h, /^<!DOCTYPE html>\n<html lang="en">/, p.url);
      assert.match(h, /<meta charset="utf-8">/, p.url);
      assert.match(h, /<title>[^<]+<\/title>/, p.url);
      assert.match(h, /<link rel="stylesheet" href="\/style.css">/, p.url);
      assert.match(h, /© 2026/, p.url);
      assert.ok(p.host.endsWith('.demo'));
    }
  });

  test('on every page the accepted blocks are exactly the paragraphs of its <article>', () => {
    for (const p of pages) {
      assert.deepEqual(accepted(p), articleParagraphs(p), p.url);
    }
  });

  test('narrative pages hold several real paragraphs, with dialogue in curly quotes and em dashes', () => {
    const narrative = pages.filter((p) => p.narrative);
    assert.ok(narrative.length >= 20, `${narrative.length} narrative pages`);
    for (const p of narrative) {
      const paras = articleParagraphs(p);
      assert.ok(paras.length >= 2, p.url);
      for (const t of paras) {
        assert.ok(t.split(' ').length > 10, `${p.url}: ${t.slice(0, 40)}`);
        assert.match(t, /^[“‘]?[A-Z]/, `${p.url}: ${t.slice(0, 40)}`);
        assert.match(t, /[.!?][”’]?$/, `${p.url}: ${t.slice(-40)}`);
      }
    }
    const all = narrative.map(html).join('\n');
    assert.ok((all.match(/“/g) ?? []).length >= 10, 'dialogue');
    assert.ok((all.match(/—/g) ?? []).length >= 3, 'em dashes');
  });

  test('good sites yield many narrative blocks, the shop and the link farm none', () => {
    for (const host of ['harbour-tales.demo', 'lighthouse-journal.demo', 'railway-letters.demo']) {
      assert.ok(acceptedByHost.get(host)! >= 15, `${host}: ${acceptedByHost.get(host)}`);
    }
    assert.ok(acceptedByHost.get('garden-almanac.demo')! >= 6);
    assert.equal(acceptedByHost.get('bargain-mart.demo'), 0);
    assert.equal(acceptedByHost.get('link-farm.demo'), 0);
  });

  test('menus, copyright lines, prices and captions are rejected, each by the rule meant for it', () => {
    const cases: [string, string][] = [
      ['Home | Stories | Gallery | About', 'forbidden-chars'],
      ['© 2026 Harbour Tales. All rights reserved', 'forbidden-chars'],
      ['Wrenmouth broad bean — £2.50 per packet', 'forbidden-chars'],
      ['Model train set, winter edition … $34.00', 'forbidden-chars'],
      ['The lifeboat shed, winter 1987', 'min-words'],
      ['Railway Letters is a reader-written magazine of the Wrenmouth branch line', 'capitalization'],
    ];
    const texts = new Set(pages.flatMap((p) => extractBlocks(html(p)).map((b) => fold(b.text))));
    for (const [text, rule] of cases) {
      assert.ok(texts.has(text), `the demo web has the block ${JSON.stringify(text)}`);
      const v = evaluateBlock(text);
      assert.equal(v.accepted, false, text);
      assert.ok(v.reasons.some((r) => r.rule === rule), `${text}: ${v.reasons.map((r) => r.rule).join(', ')}`);
    }
    const soup = extractBlocks(html(pages.find((p) => p.url === 'http://link-farm.demo/')!));
    assert.ok(soup.every((b) => !evaluateBlock(b.text).accepted));
  });

  test('price lists come as tables too, and the planting page is a layout table holding a table', () => {
    const lanterns = extractBlocks(html(pages.find((p) => p.url === 'http://bargain-mart.demo/lanterns.html')!));
    const table = lanterns.find((b) => b.tag === 'table');
    assert.ok(table && /£24\.99/.test(table.text));
    assert.equal(evaluateBlock(table.text).accepted, false);
    const planting = extractBlocks(html(pages.find((p) => p.url === 'http://garden-almanac.demo/planting.html')!));
    assert.ok(planting.some((b) => b.tag === 'table' && b.rejected === 'nested-table'));
  });

  test('the pages a crawler must not harvest: robots-disallowed, noindex, and behind nofollow only', () => {
    const byUrl = new Map(pages.map((p) => [p.url, p]));
    const drafts = byUrl.get('http://lighthouse-journal.demo/private/drafts.html')!;
    const unsent = byUrl.get('http://lighthouse-journal.demo/private/unsent-letter.html')!;
    const members = byUrl.get('http://garden-almanac.demo/members.html')!;
    const archive = byUrl.get('http://railway-letters.demo/archive.html')!;
    const last = byUrl.get('http://railway-letters.demo/letters/the-last-letter.html')!;
    for (const p of [drafts, unsent]) assert.equal(p.robotsAllowed, false, p.url);
    // Good prose all of them, so harvesting one would show in the results.
    for (const p of [drafts, unsent, members, last]) assert.ok(accepted(p).length >= 2, p.url);
    // Robots-allowed pages link into /private/.
    assert.ok(pages.some((p) => p.robotsAllowed && p.links.some((l) => l.includes('lighthouse-journal.demo/private/'))));
    // meta robots, read by the project's own link extractor.
    assert.deepEqual(extractLinks(html(members), { url: members.url }).robots, { noindex: true, nofollow: false });
    assert.deepEqual(extractLinks(html(archive), { url: archive.url }).robots, { noindex: false, nofollow: true });
    // The last letter is linked from the nofollow page only.
    const linking = pages.filter((p) => p.links.includes(last.url)).map((p) => p.url);
    assert.deepEqual(linking, [archive.url]);
    assert.equal(last.discoverable, false);
    assert.equal(members.discoverable, true);
    assert.equal(isIndexed(members), false);
    // Only these stay out of the search index.
    assert.deepEqual(
      pages.filter((p) => !isIndexed(p)).map((p) => p.url),
      [
        'http://bargain-mart.demo/cart/',
        'http://bargain-mart.demo/cart/checkout.html',
        members.url,
        drafts.url,
        unsent.url,
        last.url,
      ],
    );
  });

  test('rel=nofollow links, cross-site links from every site, outside links for scope to drop', () => {
    const nofollowed = pages.flatMap((p) =>
      extractLinks(html(p), { url: p.url }).links.filter((l) => l.nofollow).map((l) => l.url),
    );
    assert.ok(nofollowed.length >= 3, nofollowed.join(' '));
    const hosts = new Set(pages.map((p) => p.host));
    for (const host of hosts) {
      const out = pages.filter((p) => p.host === host).flatMap((p) => p.links.map((l) => new URL(l).hostname));
      assert.ok(out.some((h) => hosts.has(h) && h !== host), `${host} links to another demo site`);
    }
    const outside = new Set(pages.flatMap((p) => p.links.map((l) => new URL(l).hostname)).filter((h) => !h.endsWith('.demo')));
    assert.ok(outside.size >= 3, [...outside].join(' '));
    for (const h of outside) assert.match(h, /(^|\.)example\.(org|com|net)$/, 'outside links stay on reserved example domains');
  });
});
