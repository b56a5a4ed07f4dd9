import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { actionOnThread, progressLine, storeOnThread, workerBudgets } from '../../src/cli/workers.js';
import { CLI, startAnwc } from '../support/cli.js';
import { mysqlDb, rawSql, sqliteDb, type TestDb } from '../support/db.js';
import { prose } from '../support/flaky.js';
import { alive, childrenOf, commandLine } from '../support/proc.js';
import { startTestWeb } from '../support/testweb.js';
import { threeHarvests } from '../support/three-harvests.js';

/** Several harvest processes on one database: by hand, three at once; and `--workers N`. */

const HOSTS = ['w1.test', 'w2.test', 'w3.test', 'w4.test'];

const path = (i: number) => `/p${i}.html`;

function workersSuite(name: string, fresh: () => TestDb): void {
  describe(`three harvest processes on one ${name} database`, () => {
    it('fetch every page once (those in flight at a kill at most twice), keep each host\'s delay between all of them, lose no node and sum the rewards', async () => {
      const db = fresh();
      try {
        await threeHarvests([db.url, db.url, db.url], async ({ children }) => {
          children[0]!.kill('SIGKILL');
        });
      } finally {
        await db.cleanup();
      }
    });
  });
}

workersSuite('SQLite', () => sqliteDb());
// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') workersSuite('MariaDB', mysqlDb);

describe('workerBudgets', () => {
  it('splits --max-pages among the workers, the remainder to the first, none to a worker with no share', () => {
    assert.deepEqual(workerBudgets(3, 10), [4, 3, 3]);
    assert.deepEqual(workerBudgets(4, 2), [1, 1]);
    assert.deepEqual(workerBudgets(2, undefined), [undefined, undefined]);
  });
});

describe('storeOnThread', () => {
  it('gives SQLite a thread always, and MySQL one where the machine has two cores for each worker', () => {
    assert.equal(storeOnThread('sqlite', 4, 2), true, 'its calls block the thread that makes them');
    assert.equal(storeOnThread('mysql', 1, 2), true);
    assert.equal(storeOnThread('mysql', 2, 2), false, 'two workers on two cores');
    assert.equal(storeOnThread('mysql', 2, 4), true);
    assert.equal(storeOnThread('mysql', 1, 1), false, 'one core: nothing to gain');
  });
});

describe('actionOnThread', () => {
  it('gives the narrative action a thread where the machine has two cores for each worker', () => {
    assert.equal(actionOnThread(1, 2), true);
    assert.equal(actionOnThread(1, 1), false, 'one core: nothing to gain');
    assert.equal(actionOnThread(2, 2), false, 'two workers on two cores');
    assert.equal(actionOnThread(2, 4), true);
    assert.equal(actionOnThread(3, 5), false);
  });
});

describe('the workers\' progress line', () => {
  it('sums the pages of every worker, and keeps those of a worker that has ended', async () => {
    const db = sqliteDb();
    const store = await openStore(db.url);
    try {
      const started = Date.now();
      const seen = new Map<string, number>();
      await store.heartbeat('w1', { now: Date.now(), leaseMs: 30_000, pages: 7 });
      await store.heartbeat('w2', { now: Date.now(), leaseMs: 30_000, pages: 5 });
      assert.match(await progressLine(store, started, seen), /^anwc: 2 workers, 12 pages started/);
      await store.heartbeat('w1', { now: Date.now(), leaseMs: 30_000, pages: 9 });
      await store.workerStopped('w2');
      assert.match(await progressLine(store, started, seen), /^anwc: 1 workers, 14 pages started/, 'the ended worker\'s 5 pages stay in the sum');
    } finally {
      await store.close();
      await db.cleanup();
    }
  });

  it('counts as waiting only the links whose retry is not due yet', async () => {
    const db = sqliteDb();
    const store = await openStore(db.url);
    try {
      const urls = ['http://a.test/due', 'http://b.test/later', 'http://c.test/never-failed'];
      await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
      const file = new Database(db.url.slice('sqlite:'.length));
      const set = file.prepare('UPDATE links SET not_before = ?, attempts = 1 WHERE url = ?');
      set.run(Date.now() - 60_000, urls[0]);
      set.run(Date.now() + 300_000, urls[1]);
      file.close();
      const line = await progressLine(store, Date.now(), new Map());
      assert.match(line, /, 3 links waiting, 0 crawler nodes; waiting: 1 link for a retry, next due [\d:]+ UTC \(in [45] min( \d+ s)?\)\n$/);
    } finally {
      await store.close();
      await db.cleanup();
    }
  });
});

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
      assert.match(r.stdout, /^harvest by 3 workers: 24 pages, 24 new nodes; stored, on no topic: 0$/m);
      assert.equal((r.stdout.match(/^ {2}worker \d: stopped: frontier-empty/gm) ?? []).length, 3);
      assert.equal((r.stderr.match(/^\[worker \d\] anwc: (starting|resuming|nothing left to walk)/gm) ?? []).length, 3, 'each worker\'s lines, marked');
      for (const h of HOSTS) for (let i = 0; i < 6; i++) assert.equal(web.count(h, path(i)), 1);

      // A worker that starts after its siblings walked the frontier stops quietly; a lone harvest says there is nothing to do.
      const late = await startAnwc(args('--json'), { env: { ANWC_WORKER: '4' } }).exited;
      assert.equal(late.code, 0, late.stderr);
      assert.equal(JSON.parse(late.stdout).stop, 'frontier-empty');
      const alone = await startAnwc(args()).exited;
      assert.equal(alone.code, 0, alone.stderr);
      assert.match(alone.stderr, /nothing left to harvest: all \d+ known links were walked/);
    } finally {
      await web.close();
      await db.cleanup();
    }
  });

  it('--max-pages is the budget of the whole run, shared among the workers', async () => {
    const { web, db, args } = await setUp(6);
    try {
      const r = await startAnwc(args('--workers', '3', '--max-pages', '5')).exited;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^harvest by 3 workers: 5 pages, 5 new nodes/m);
      let asked = 0;
      for (const h of HOSTS) for (let i = 0; i < 6; i++) asked += web.count(h, path(i));
      assert.equal(asked, 5, 'five pages fetched in all, not five a worker');
    } finally {
      await web.close();
      await db.cleanup();
    }
  });

  it('gives each worker a seed of its own, so that they do not draw the same domains in the same order', async () => {
    const { web, db, args } = await setUp(3);
    try {
      const r = await startAnwc(args('--workers', '2', '--seed', '7')).exited;
      assert.equal(r.code, 0, r.stderr);
      const seeds = (await rawSql(db.url, 'SELECT seed FROM runs ORDER BY seed')).map((row) => Number(row.seed));
      assert.deepEqual(seeds, [7, 8]);
    } finally {
      await web.close();
      await db.cleanup();
    }
  });

  it('Ctrl-C stops every worker after its pages in flight, exit 130, nothing left leased', async () => {
    const { web, db, args } = await setUp(40);
    try {
      const run = startAnwc(args('--workers', '2'));
      // Both at work (a loaded machine may start one late), then Ctrl-C.
      let stderr = '';
      run.child.stderr!.on('data', (d) => (stderr += d));
      const started = () => (stderr.match(/^\[worker \d\] anwc: (starting|resuming)/gm) ?? []).length;
      while (web.requests() < 12 || started() < 2) await new Promise((r) => setTimeout(r, 5));
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

  it('a parent killed outright (SIGKILL): its workers finish their pages in flight, save and end', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const { web, db, args } = await setUp(400);
    let workers: number[] = [];
    try {
      const run = startAnwc(args('--workers', '2'));
      while (web.requests() < 12) await new Promise((r) => setTimeout(r, 5));
      workers = childrenOf(run.child.pid!);
      assert.equal(workers.length, 2);
      // Each worker is anwc's CLI again, which sets anwc's flags of Node's itself (cli/node-flags.ts).
      for (const pid of workers) {
        const argv = commandLine(pid);
        assert.equal(argv[1], CLI, `worker ${pid}: ${argv.join(' ')}`);
      }
      run.child.kill('SIGKILL');
      await run.exited;
      for (let waited = 0; workers.some(alive) && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(workers.filter(alive), [], 'no worker walks on without its parent');
      const asked = web.requests();
      const store = await openStore(db.url);
      try {
        const sum = await store.summary();
        assert.equal(sum.links.leased, undefined, 'no link left leased');
        assert.ok(asked < 1600 && (sum.links.pending ?? 0) > 0, `stopped long before the end (${asked} requests)`);
        assert.equal(sum.nodes.crawler, sum.links.done, 'every page walked was saved');
      } finally {
        await store.close();
      }
    } finally {
      for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
      await web.close();
      await db.cleanup();
    }
  });

  it('--workers 0 is one line and exit 2', async () => {
    const r = await startAnwc(['harvest', '--workers', '0', '--db', `sqlite:${join(tmpdir(), 'anwc-never-made', 'none.sqlite')}`]).exited;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^anwc: --workers is not valid \(got "0"\); give a whole number from 1 to 64\n$/);
  });
});
