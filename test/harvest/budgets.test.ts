import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { harvest, type HarvestOptions } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { sqliteDb, type TestDb } from '../support/db.js';
import { prose } from '../support/flaky.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/** Runs that must end by themselves although links stay pending: budgets and hosts given up. */


let web: TestWeb;
before(async () => {
  web = await startTestWeb();
  for (const host of ['good.test', 'broken.test']) web.page(host, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  for (let i = 0; i < 6; i++) {
    web.page('good.test', `/${i}.html`, `<html><body>${prose(i)}</body></html>`);
    web.page('broken.test', `/${i}.html`, 'down', { status: 500 });
  }
});
after(() => web.close());

function options(over: Partial<HarvestOptions> = {}): HarvestOptions {
  return {
    strategy: 'roulette', concurrency: 2, seed: 3, reward: 1, maxDepth: 2, hosts: ['*.test'], leaseMs: 60_000,
    fetcher: { resolve: web.resolve }, politeness: { delayMs: 0, backoffBaseMs: 5, backoffMaxMs: 10, maxTries: 2 }, narrative: {},
    ...over,
  };
}

async function seeded(): Promise<{ db: TestDb; store: Store }> {
  const db = sqliteDb();
  const store = await openStore(db.url);
  const urls = ['good.test', 'broken.test'].flatMap((h) => Array.from({ length: 6 }, (_, i) => web.url(h, `/${i}.html`)));
  await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
  return { db, store };
}

test('a host that keeps failing is given up; the run ends by itself and its links wait for the next run', async () => {
  const { db, store } = await seeded();
  try {
    const before = web.count('broken.test');
    const report = await harvest(store, options());
    assert.equal(report.stop, 'frontier-empty');
    assert.deepEqual(report.givenUp, ['broken.test']);
    assert.equal(web.count('broken.test') - before, 2 + 1, 'robots.txt and maxTries=2 pages, then nothing');
    const sum = await store.summary();
    assert.equal(sum.links.pending, 6, 'the broken host\'s six pages stay pending, the ones tried among them');
    assert.ok((await store.waitingRetries(0))!.links >= 1, 'a 500 is transient: a page tried goes back for a retry');
    assert.equal(sum.failures['http-500'], undefined, 'no link failed for good');
    assert.equal(report.stats.retryCauses['http-500'], 2);
    assert.equal(sum.nodes.crawler, 6, 'the good host was walked to the end');
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test('a per-domain page budget ends the run with the rest of the domain pending', async () => {
  const { db, store } = await seeded();
  try {
    const before = web.count('broken.test');
    const report = await harvest(store, options({ maxPagesPerDomain: 2, politeness: { delayMs: 0 } }));
    assert.equal(report.stop, 'frontier-empty');
    const sum = await store.summary();
    assert.equal(sum.links.done, 2, 'two pages of the good host');
    // The second may be the first again, when its retry fell due before the host's backoff ended.
    assert.equal(web.count('broken.test') - before, 1 + 2, 'robots.txt and two pages of the broken host');
    assert.ok((await store.waitingRetries(0))!.links >= 1, 'the broken host\'s pages wait for a retry');
    assert.equal(sum.links.pending, 10, 'the rest of both hosts waits for a later run');
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test('a page budget stops the run after that many pages', async () => {
  const { db, store } = await seeded();
  try {
    const report = await harvest(store, options({ maxPages: 3, politeness: { delayMs: 0 } }));
    assert.equal(report.stop, 'max-pages');
    assert.equal(report.stats.pagesStarted, 3);
    assert.equal(report.stats.pagesDone + report.stats.retries, 3, 'each page started ended, or went back for a retry');
    assert.equal((await store.summary()).links.pending, 12 - report.stats.pagesDone);
  } finally {
    await store.close();
    await db.cleanup();
  }
});
