import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ci95, mean } from '../../bench/stats.js';
import { DEFAULT_KINDS, gradedWeb } from '../../bench/graded-web.js';
import { perPage, readTally } from '../../bench/graded-walk.js';
import { openStore } from '../../src/store/open.js';
import { sqliteDb } from '../support/db.js';
import { extractBlocks, parseDom } from '../../src/html/index.js';
import { evaluateBlock } from '../../src/text/index.js';

/** The harvest-rate bench's web must be what its table says it is, or its ratios mean nothing. */

const shape = { seed: 3, pagesPerHost: 30, kinds: DEFAULT_KINDS, seeds: 6, port: 8123 };
const yields = (html: string) => extractBlocks(parseDom(html)).some((b) => !b.rejected && evaluateBlock(b.text).accepted);

test('a seed makes one web; another seed another', () => {
  const a = gradedWeb(shape);
  assert.deepEqual(gradedWeb(shape), a);
  assert.notDeepEqual(gradedWeb({ ...shape, seed: 4 }).hosts.map((h) => h.kind), a.hosts.map((h) => h.kind));
  assert.equal(a.seedHosts.length, 6);
  assert.equal(a.hosts.length, DEFAULT_KINDS.reduce((n, k) => n + k.count, 0));
});

test('each kind of host yields narrative at about its stated share under the thesis rules', () => {
  const web = gradedWeb(shape);
  for (const kind of DEFAULT_KINDS) {
    const hosts = web.hosts.filter((h) => h.kind === kind.name);
    const pages = hosts.flatMap((h) => [...h.pages].filter(([p]) => p.endsWith('.html')).map(([, html]) => html));
    const share = pages.filter(yields).length / pages.length;
    assert.ok(Math.abs(share - kind.narrative) < 0.12, `${kind.name}: ${share.toFixed(2)} of pages yield, stated ${kind.narrative}`);
  }
});

test('links stay on the web: same-host paths, other hosts by name and port', () => {
  for (const host of gradedWeb(shape).hosts) {
    for (const [, html] of host.pages) {
      for (const [, href] of html.matchAll(/href="([^"]+)"/g)) assert.match(href!, /^(\/(p\d+\.html)?|http:\/\/h\d+\.graded\.test:8123\/)$/);
    }
  }
});

test('the 95 % interval is Student\'s t over n − 1 degrees of freedom', () => {
  assert.equal(ci95([5]), 0, 'one value, no interval');
  assert.equal(mean([1, 2, 3]), 2);
  // sd = 1, n = 3: 4.303 / sqrt(3).
  assert.ok(Math.abs(ci95([1, 2, 3]) - 4.303 / Math.sqrt(3)) < 1e-12);
});

test('the focus bench\'s web: rich on-topic hosts write about the topic, rich off-topic hosts seldom, poor hosts hardly write', async () => {
  const { FOCUS_KINDS } = await import('../../bench/focus.js');
  const web = gradedWeb({ seed: 2, pagesPerHost: 40, kinds: FOCUS_KINDS, seeds: 0, port: 8123 });
  const share = (kind: string, f: (html: string) => boolean) => {
    const pages = web.hosts.filter((h) => h.kind === kind).flatMap((h) => [...h.pages].filter(([p]) => p.endsWith('.html')).map(([, html]) => html));
    return pages.filter(f).length / pages.length;
  };
  const about = (html: string) => /<p>[^<]*lighthouse/.test(html);
  assert.ok(share('rich, on topic', about) > 0.6, 'most pages of a rich on-topic host speak of lighthouses');
  assert.ok(share('rich, off topic', about) < 0.15);
  assert.ok(share('rich, off topic', yields) > 0.75, 'but they are rich in prose');
  assert.ok(share('poor', yields) < 0.15);
});

test('a walk\'s tally counts its harvested pages, the pages with a node, and every node, from the stored outcomes', async () => {
  const db = sqliteDb();
  try {
    const store = await openStore(db.url);
    try {
      const outcomes = [
        { kind: 'harvested', detail: { nodes: 3, onTopic: 1 } },
        { kind: 'harvested', detail: { nodes: 0 } },
        { kind: 'harvested', detail: { nodes: 2, onTopic: 2 } },
        { kind: 'http-error', detail: { status: 500 } },
      ];
      await store.addLinks(outcomes.map((_, i) => ({ url: `http://h${i % 2}.graded.test/p${i}.html`, host: `h${i % 2}.graded.test`, depth: 0 })));
      for (const [i, outcome] of outcomes.entries()) {
        const link = await store.linkByUrl(`http://h${i % 2}.graded.test/p${i}.html`);
        await store.completePage({ linkId: link!.id, outcome, nodes: [], newLinks: [], domainReward: 0 });
      }
    } finally {
      await store.close();
    }
    const t = await readTally(db.url);
    assert.deepEqual({ fetched: t.fetched, withNodes: t.withNodes, allNodes: t.allNodes, onTopic: t.onTopic, onTopicNodes: t.onTopicNodes },
      { fetched: 3, withNodes: 2, allNodes: 5, onTopic: 2, onTopicNodes: 3 });
    assert.deepEqual([...t.byHost].sort(), [['h0.graded.test', 2], ['h1.graded.test', 1]]);
    assert.equal(perPage.allNodes({ ...t, fetched: 3 }), 5 / 3);
  } finally {
    await db.cleanup();
  }
});
