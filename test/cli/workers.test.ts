import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { startAnwc } from '../support/cli.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';
import { prose } from '../support/flaky.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * Three `anwc harvest` processes on one database, one of them SIGKILLed mid-run: together they are
 * one crawl and as polite as one process (issue: scale-out). The server counts and times every
 * request, so what it saw is what the crawl did.
 */

const HOSTS = ['w1.test', 'w2.test', 'w3.test', 'w4.test'];
const PAGES = 10;
const DELAY_MS = 150;
const CONCURRENCY = 2;
/** Timer and scheduling slack at the server between two requests the claim spaced by the delay. */
const SLACK_MS = 15;

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-workers-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const path = (i: number) => `/p${i}.html`;

function workersSuite(name: string, fresh: () => TestDb): void {
  describe(`three harvest processes on one ${name} database`, () => {
    it('fetch every page once (those in flight at a kill at most twice), keep each host\'s delay between all of them, lose no node and sum the rewards', async () => {
      const web: TestWeb = await startTestWeb();
      const db = fresh();
      try {
        for (const h of HOSTS) {
          web.page(h, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
          for (let i = 0; i < PAGES; i++) web.page(h, path(i), `<html><body>${prose(`${h} ${i}`)}</body></html>`);
        }
        const store = await openStore(db.url);
        await store.addLinks(HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, i) => ({ url: web.url(h, path(i)), host: h, depth: 0 }))));
        await store.close();
        const args = ['harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', String(DELAY_MS / 1000),
          '--concurrency', String(CONCURRENCY), '--lease', '2', '--progress', 'none'];
        const runs = [startAnwc(args), startAnwc(args), startAnwc(args)];
        const pages = () => HOSTS.reduce((n, h) => n + web.arrivals(h).filter((a) => a.path !== '/robots.txt').length, 0);
        for (let waited = 0; pages() < 8; waited += 5) {
          assert.ok(waited < 30_000, 'the crawl started');
          await new Promise((r) => setTimeout(r, 5));
        }
        runs[0]!.child.kill('SIGKILL');
        const [killed, ...survivors] = await Promise.all(runs.map((r) => r.exited));
        assert.equal(killed!.code, null, 'killed mid-run');
        for (const s of survivors) assert.equal(s.code, 0, s.stderr);

        let twice = 0;
        for (const h of HOSTS) {
          for (let i = 0; i < PAGES; i++) {
            const n = web.count(h, path(i));
            assert.ok(n === 1 || n === 2, `${h}${path(i)} fetched ${n} times`);
            if (n === 2) twice++;
          }
          const times = web.arrivals(h).filter((a) => a.path !== '/robots.txt').map((a) => a.at);
          for (let k = 1; k < times.length; k++) {
            assert.ok(times[k]! - times[k - 1]! >= DELAY_MS - SLACK_MS, `${h}: requests ${times[k]! - times[k - 1]!} ms apart, delay ${DELAY_MS} ms`);
          }
        }
        assert.ok(twice <= CONCURRENCY, `${twice} pages fetched twice; only the killed process's pages in flight may be`);

        const after = await openStore(db.url);
        try {
          const sum = await after.summary();
          assert.deepEqual(sum.links, { done: HOSTS.length * PAGES }, 'the survivors finished the frontier');
          assert.equal(sum.nodes.crawler, HOSTS.length * PAGES, 'one node a page, none lost or doubled');
          for (const h of HOSTS) assert.equal((await after.domain(h))!.score, 1 + PAGES, `${h}: 1 + one reward for each of its pages`);
          assert.deepEqual(await after.liveWorkers(0).then((ws) => ws.filter((w) => w.leases > 0)), [], 'no worker holds a lease');
        } finally {
          await after.close();
        }
      } finally {
        await web.close();
        await db.cleanup();
      }
    });
  });
}

workersSuite('SQLite', () => sqliteDb());
// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') workersSuite('MariaDB', mysqlDb);

describe('anwc harvest --workers', () => {
  const setUp = async (pages: number) => {
    const web = await startTestWeb();
    for (const h of HOSTS) {
      web.page(h, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
      for (let i = 0; i < pages; i++) web.page(h, path(i), `<html><body>${prose(`${h} ${i}`)}</body></html>`);
    }
    const db = sqliteDb();
    const store = await openStore(db.url);
    await store.addLinks(HOSTS.flatMap((h) => Array.from({ length: pages }, (_, i) => ({ url: web.url(h, path(i)), host: h, depth: 0 }))));
    await store.close();
    const args = (...more: string[]) => ['harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0.05', '--progress', 'none', ...more];
    return { web, db, args };
  };

  it('starts that many processes that walk the frontier as one crawl and sums them up', async () => {
    const { web, db, args } = await setUp(6);
    try {
      const r = await startAnwc(args('--workers', '3')).exited;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^harvest by 3 workers: 24 pages, 24 new nodes$/m);
      assert.equal((r.stdout.match(/^ {2}worker \d: stopped: frontier-empty/gm) ?? []).length, 3);
      assert.equal((r.stderr.match(/^\[worker \d\] anwc: (starting|resuming)/gm) ?? []).length, 3, 'each worker\'s lines, marked');
      for (const h of HOSTS) for (let i = 0; i < 6; i++) assert.equal(web.count(h, path(i)), 1);
    } finally {
      await web.close();
      await db.cleanup();
    }
  });

  it('Ctrl-C stops every worker after its pages in flight, exit 130, nothing left leased', async () => {
    const { web, db, args } = await setUp(40);
    try {
      const run = startAnwc(args('--workers', '2'));
      while (web.requests() < 12) await new Promise((r) => setTimeout(r, 5));
      run.child.kill('SIGINT');
      const r = await run.exited;
      assert.equal(r.code, 130, r.stderr);
      assert.match(r.stderr, /asking the workers to finish their pages in flight and save/);
      assert.equal((r.stdout.match(/stopped: interrupted/g) ?? []).length, 2);
      const store = await openStore(db.url);
      try {
        const sum = await store.summary();
        assert.equal(sum.links.leased, undefined, 'no link left leased');
        assert.ok((sum.links.pending ?? 0) > 0, 'stopped before the end');
        assert.equal(sum.nodes.crawler, sum.links.done, 'every page walked was saved');
      } finally {
        await store.close();
      }
    } finally {
      await web.close();
      await db.cleanup();
    }
  });

  it('--workers 0 is one line and exit 2', async () => {
    const r = await startAnwc(['harvest', '--workers', '0', '--db', `sqlite:${join(dir, 'none.sqlite')}`]).exited;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^anwc: --workers is not valid \(got "0"\); give a whole number from 1 to 64\n$/);
  });
});
