import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Link, Store } from '../../src/store/store.js';
import { stem } from '../../src/text/stem.js';
import { CLAIM_BATCH, maxInFlight } from '../../src/walk/engine.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';
import { corpusUrls, HUB_HOST, hubPage, storedLinks } from '../support/hub.js';
import { SITES, startTestWeb, type TestWeb } from '../support/testweb.js';
import { needsShared } from '../support/shared.js';
import { notNearAny } from '../support/near.js';

/** The crawls are of the corpus web: a bare clone skips them with one line. */
const SHARED = needsShared('corpus');

/**
 * `anwc harvest` as a user runs it, in a child process against the local test web served from
 * this process (the URLs carry its port): killed with SIGKILL mid-crawl and run again, stopped
 * with Ctrl-C, started on an empty frontier, given bad flags. The frontier is prepared from the
 * test in the same database, as `anwc seed` would leave it.
 */

// The built CLI under `npm test`; the source through tsx when this file runs from source.
const FROM_SOURCE = fileURLToPath(import.meta.url).endsWith('.ts');
const NODE_ARGS = FROM_SOURCE ? ['--import', 'tsx', resolve('src', 'cli', 'main.ts')] : [resolve('dist', 'src', 'cli', 'main.js')];

const CONCURRENCY = 4;
/** Lease of the run that is killed: longer than the rerun needs for everything else. */
const DEAD_LEASE_S = 6;
const HOSTS = [HUB_HOST, ...Object.keys(SITES)];

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Running {
  kill(signal: NodeJS.Signals): void;
  exited: Promise<Exit>;
}

function anwc(args: string[]): Running {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    env: { ...process.env, ANWC_DEBUG: '', ANWC_DB: '', ANWC_USER_AGENT: '', ANWC_CONTACT: '', ANWC_FROM: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<Exit>((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
  return { kill: (s) => child.kill(s), exited };
}

/** The flags of every test crawl: the test web only, no delay, short leases, bounded by depth from the seed. */
function harvestArgs(db: string, { lease = 2 } = {}, ...more: string[]): string[] {
  return [
    'harvest', '--db', db, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--lease', String(lease),
    '--max-depth', '2', '--depth-from', 'seed', '--concurrency', String(CONCURRENCY), '--seed', '1', '--progress', 'none', ...more,
  ];
}

/** What `anwc seed` leaves: a query for two meta words and the hub as its depth-0 result. */
async function prepare(dbUrl: string, hub: string): Promise<void> {
  const store = await openStore(dbUrl);
  try {
    const words = await store.ensureMetaWords(['detective', 'traveller'].map((word) => ({ word, stem: stem(word) })));
    const queryId = await store.recordSearch({ provider: 'file', terms: 'detective traveller', results: [hub], metaWordIds: words.map((w) => w.id) });
    assert.equal(await store.addLinks([{ url: hub, host: HUB_HOST, depth: 0, queryId }]), 1);
  } finally {
    await store.close();
  }
}

const requests = (web: TestWeb) => HOSTS.reduce((n, h) => n + web.count(h), 0);

async function whenRequests(web: TestWeb, n: number, run: Running): Promise<void> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  while (requests(web) < n) {
    if (ended) throw new Error(`the crawl ended after ${requests(web)} requests, before ${n}: ${(await run.exited).stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The crawl's state as a path → status map (hosts without ports), and its crawler texts. */
interface Snapshot {
  links: Map<string, Link>;
  statuses: Record<string, string>;
  texts: string[];
}

async function snapshot(dbUrl: string, web: TestWeb, hub: string): Promise<Snapshot> {
  const store: Store = await openStore(dbUrl);
  try {
    const links = await storedLinks(store, [hub, ...corpusUrls(web).map((c) => c.url)]);
    const sum = await store.summary();
    const total = Object.values(sum.links).reduce((a, b) => a + b, 0);
    assert.equal(links.size, total, 'every stored link is a corpus page or the hub');
    const statuses: Record<string, string> = {};
    for (const l of links.values()) statuses[`${l.host}${new URL(l.url).pathname}`] = l.status;
    const texts = (await store.nodes({ origin: 'crawler' })).map((n) => n.text).sort();
    return { links, statuses, texts };
  } finally {
    await store.close();
  }
}

function oneLine(r: Exit): string {
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  return lines[0]!;
}

let dir = '';
let reference: Snapshot;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-cli-harvest-'));
  if (SHARED) return;
  // One uninterrupted run on a fresh database: what every interrupted run must end up with.
  const web = await startTestWeb();
  const db = `sqlite:${join(dir, 'reference.sqlite')}`;
  try {
    const hub = hubPage(web);
    await prepare(db, hub);
    const r = await anwc(harvestArgs(db)).exited;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^harvest stopped: frontier-empty/);
    reference = await snapshot(db, web, hub);
    assert.ok(reference.texts.length > 1000 && Object.keys(reference.statuses).length > 200);
  } finally {
    await web.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

function killResumeSuite(name: string, fresh: () => TestDb): void {
  describe(`anwc harvest killed and resumed on ${name}`, { skip: SHARED }, () => {
    it('after SIGKILL mid-crawl a rerun ends every link once, loses and doubles no node, and refetches only pages in flight', async () => {
      const web = await startTestWeb();
      const db = fresh();
      try {
        const hub = hubPage(web);
        await prepare(db.url, hub);
        // Its leases outlast the rerun's own work, so the rerun has to wait for them to run out.
        const first = anwc(harvestArgs(db.url, { lease: DEAD_LEASE_S }));
        await whenRequests(web, 40, first);
        first.kill('SIGKILL');
        const killed = await first.exited;
        assert.equal(killed.signal, 'SIGKILL', 'killed mid-crawl, not finished');

        const atKill = await snapshot(db.url, web, hub);
        // Leased: the pages in flight (fetching, and fetched and not yet stored), and the links
        // claimed with them and not started (CLAIM_BATCH a slot at most).
        const leased = new Set([...atKill.links.values()].filter((l) => l.status === 'leased').map((l) => l.url));
        assert.ok(leased.size <= maxInFlight(CONCURRENCY) + CONCURRENCY * CLAIM_BATCH, `${leased.size} leased at the kill`);
        assert.ok(Object.values(atKill.statuses).includes('pending'), 'work was left');

        const rerun = await anwc(harvestArgs(db.url)).exited;
        assert.equal(rerun.code, 0, rerun.stderr);
        assert.match(rerun.stderr, /^anwc: resuming: \d+ links waiting, \d+ walked before \(strategy roulette\)$/m);
        assert.match(rerun.stdout, /^harvest stopped: frontier-empty/);

        const end = await snapshot(db.url, web, hub);
        assert.deepEqual(end.statuses, reference.statuses, 'every link ends as in an uninterrupted run: done, failed or excluded, none pending or leased');
        assert.deepEqual(notNearAny(end.texts, reference.texts), [], 'the same crawler nodes as an uninterrupted run, up to which of two near-copies came first');
        assert.deepEqual(notNearAny(reference.texts, end.texts), []);
        assert.ok(Math.abs(end.texts.length - reference.texts.length) <= 2, 'as many nodes, but for a near-copy or two');
        assert.equal(new Set(end.texts).size, end.texts.length, 'each text once');

        const twice: string[] = [];
        for (const u of corpusUrls(web)) {
          const n = web.count(u.host, u.path);
          assert.ok(n <= 2, `${u.url} fetched ${n} times`);
          if (n === 2 && u.path !== '/robots.txt') twice.push(u.url);
        }
        assert.ok(web.count(HUB_HOST, '/sites.html') <= 2);
        for (const url of twice) assert.ok(leased.has(url), `${url} was fetched twice but was not leased at the kill`);
        assert.ok(twice.length <= maxInFlight(CONCURRENCY), `${twice.length} fetched twice`);

        const again = await anwc(harvestArgs(db.url)).exited;
        assert.equal(again.code, 0, 'a frontier walked to its end is done, not a mistake');
        assert.match(oneLine(again), /^anwc: nothing left to harvest: all \d+ known links were walked/);
        const stats = await anwc(['stats', '--db', db.url]).exited;
        assert.match(stats.stdout, /^ {2}#\d+ .* UTC {2}running, or cut off before it could save its counts/m, 'the killed run is not said to have read 0 pages');
        assert.doesNotMatch(stats.stdout, / 0 pages, 0 nodes/);
      } finally {
        await web.close();
        await db.cleanup();
      }
    });

    it('Ctrl-C once finishes the pages in flight, prints the summary, exits 130 and leaves nothing leased', async () => {
      const web = await startTestWeb();
      const db = fresh();
      try {
        const hub = hubPage(web);
        await prepare(db.url, hub);
        const run = anwc(harvestArgs(db.url));
        await whenRequests(web, 30, run);
        run.kill('SIGINT');
        const r = await run.exited;
        assert.equal(r.code, 130, r.stderr);
        assert.match(r.stderr, /finishing the pages in flight, then saving/);
        assert.match(r.stdout, /^harvest stopped: interrupted after [\d.]+ s\n/);
        const store = await openStore(db.url);
        try {
          const sum = await store.summary();
          assert.equal(sum.links.leased ?? 0, 0, JSON.stringify(sum.links));
          assert.ok((sum.links.pending ?? 0) > 0, 'stopped before the end');
          assert.ok(sum.nodes.crawler > 0, 'what was walked is kept');
        } finally {
          await store.close();
        }
      } finally {
        await web.close();
        await db.cleanup();
      }
    });
  });
}

killResumeSuite('SQLite', sqliteDb);
// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') killResumeSuite('MariaDB', mysqlDb);

describe('anwc harvest refuses what it cannot walk', () => {
  it('an empty frontier is one line, "anwc: nothing to harvest…", and exit 2', async () => {
    const db = `sqlite:${join(dir, 'empty.sqlite')}`;
    await (await openStore(db)).close();
    const r = await anwc(harvestArgs(db)).exited;
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(oneLine(r), /^anwc: nothing to harvest: the frontier holds no link to walk; .*anwc import FILE\.ane, then anwc seed/);
  });

  it('a database that does not exist is one line, exit 2, and is not created', async () => {
    const file = join(dir, 'missing.sqlite');
    const r = await anwc(harvestArgs(`sqlite:${file}`)).exited;
    assert.equal(r.code, 2);
    assert.match(oneLine(r), /^anwc: no anwc database at /);
    assert.equal(existsSync(file), false);
  });

  for (const [flag, value] of [['--strategy', 'zigzag'], ['--max-pages', '0'], ['--concurrency', '0'], ['--lease', '0'], ['--resolve', 'nohost'], ['--reward', 'topic'], ['--reward', '-1'], ['--order', 'random']] as const) {
    it(`${flag} ${value} is one line naming the flag, exit 2, and no database is created`, async () => {
      const file = join(dir, `bad-${flag.slice(2)}.sqlite`);
      const args = harvestArgs(`sqlite:${file}`).filter((a, i, all) => a !== flag && all[i - 1] !== flag);
      const r = await anwc([...args, flag, value]).exited;
      assert.equal(r.code, 2, r.stderr);
      assert.match(oneLine(r), new RegExp(`^anwc: .*(${flag}|${flag.slice(2)}).*`));
      assert.equal(existsSync(file), false);
    });
  }
});
