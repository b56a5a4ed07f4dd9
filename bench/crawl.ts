import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { openStore } from '../src/store/open.js';
import { narrativeAction } from '../src/walk/actions/narrative.js';
import { FETCH_DEFAULTS } from '../src/web/defaults.js';
import { decodeHtml } from '../src/html/decode.js';
import { CLAIM_BATCH } from '../src/walk/engine.js';
import { leaseProbes, LIVE_LEASES } from '../src/store/sqlite/frontier.js';
import { CANDIDATE_ROWS } from '../src/store/sqlite/nodes.js';
import { storedHelp } from '../src/cli/help-pages.js';
import { BAND_ROWS_AFTER } from '../src/store/sqlite/bands.js';
import { benchMysql, mysqlDb, mysqlSocket, viaSocket, type TestDb } from '../test/support/db.js';
import { crawlShape, gradedWeb, hostName, type GradedShape } from './graded-web.js';
import { startChildWeb, type ChildWeb } from './harvest.js';
import { serverCounters } from './mysql-server.js';
import { findPeers } from './peers.js';
import { realWeb, REAL_PAGE_DIRS } from './real-web.js';
import { needsShared } from '../test/support/shared.js';
import { median } from './stats.js';
import { goalLine, perRound, type Goal } from './goals.js';
import { builtCheckout, count, counts } from './knobs.js';

/**
 * Crawl speed (issue: speed). A generated web (H hosts × P pages of prose, navigation and a few
 * tables, L links a page) served from a child process; in interleaved rounds, the loopback
 * ceiling (plain undici request() of every page with the same concurrency) and `anwc harvest` of
 * the whole web from its home pages, on SQLite and, when ANWC_TEST_MYSQL is set, on MariaDB/MySQL:
 * pages/s, the ratio to the ceiling, CPU ms per page of the crawler and of the database server,
 * and the crawler's peak RSS. Then a sweep over web sizes on disk-backed SQLite, where pages/s and
 * CPU per page should stay flat, with the query plans the frontier relies on; and the start-up
 * time of common commands beside `node -e 0`. Between them, when ../shared is there, the same crawl of real
 * pages (real-web.ts), whose cost a page is the action's more than the store's.
 *
 *   npm run bench -- crawl
 *   ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ npm run bench -- crawl
 *
 * Knobs: BENCH_CRAWL_HOSTS (20), BENCH_CRAWL_PAGES (500 a host), BENCH_CRAWL_LINKS (5),
 * BENCH_CRAWL_CONCURRENCY (16), BENCH_CRAWL_ROUNDS (3), BENCH_CRAWL_SWEEP (pages in all, e.g.
 * 1000,10000,100000; empty for none), BENCH_CRAWL_REAL_PAGES (100 a host of the real pages; 0 for none),
 * BENCH_CRAWL_BASE (a checkout of another commit, built: its SQLite harvest is a row of each round,
 * beside this build's, so that a change is judged against the code before it in one run;
 * the machine's speed moves by a tenth between runs, more than most changes do).
 */

const HOSTS = count('BENCH_CRAWL_HOSTS', 20);
const PAGES = count('BENCH_CRAWL_PAGES', 500);
const LINKS = count('BENCH_CRAWL_LINKS', 5);
const CONCURRENCY = count('BENCH_CRAWL_CONCURRENCY', 16);
const ROUNDS = count('BENCH_CRAWL_ROUNDS', 3);
const REAL_PAGES = count('BENCH_CRAWL_REAL_PAGES', 100, 0);
const SWEEP = counts('BENCH_CRAWL_SWEEP', '1000,10000,100000');
const BASE_CLI = builtCheckout('BENCH_CRAWL_BASE');

const dist = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(dist, 'src', 'cli', 'main.js');
const HOOK = join(dist, 'bench', 'usage-hook.js');

const shape = (hosts: number, pages: number): GradedShape => crawlShape(hosts, pages, LINKS);

const NO_META = { metaWordIds: [], metaStems: [] };

const gradedHosts = (hosts: number) => Array.from({ length: hosts }, (_, h) => hostName(h));

interface Measured {
  pages: number;
  ms: number;
  cpuMs: number;
  dbCpuMs?: number;
  /** Statements the MySQL server was sent (its Questions counter). */
  dbStatements?: number;
  /** Round trips to the MySQL server (the crawler's writes to its socket). */
  dbTrips?: number;
  maxRssMb?: number;
}

/**
 * Every page of the web, fetched as fast as undici goes with the crawl's concurrency: the ceiling.
 * Its connections are the crawler's: one to each host (FETCH_DEFAULTS), the hosts taken in turn,
 * so that the pages in flight are on as many connections as in the crawl. With `act`, each page
 * also goes through the narrative action (parse, blocks, the thesis rules, band keys): what a crawl
 * cannot do without, before it stores anything; with `charset`, each page is decoded by its charset first.
 */
async function ceiling(web: ChildWeb, paths: { host: string; path: string }[], o: { act?: boolean; charset?: boolean } = {}): Promise<Measured> {
  const agent = new Agent({ connections: FETCH_DEFAULTS.connectionsPerOrigin, pipelining: 1, connect: { lookup: toLoopback } });
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < paths.length) {
      const p = paths[next++]!;
      const url = `http://${p.host}:${web.port}${p.path}`;
      const res = await request(url, { dispatcher: agent });
      // The real pages' charsets are the reader's to find, as the crawler does; the graded web's are UTF-8.
      const text = o.charset ? decodeHtml(new Uint8Array(await res.body.arrayBuffer()), String(res.headers['content-type'] ?? '')).text : await res.body.text();
      if (res.statusCode !== 200) throw new Error(`ceiling: ${res.statusCode} for ${p.host}${p.path}`);
      if (o.act && p.path !== '/robots.txt') narrativeAction({ finalUrl: url, status: 200, headers: {}, text, truncated: false }, NO_META, { robotsToken: 'anwc' });
    }
  }));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await agent.close();
  return { pages: paths.length, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Every test host is this machine, as `--resolve '*.test:127.0.0.1'` tells the crawler. */
const toLoopback: LookupFunction = (_host, options, done) => {
  if (options.all) (done as (err: null, all: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else done(null, '127.0.0.1', 4);
};

/** The first page of each host, then the second of each, and so on: a crawl's pages in flight are on different hosts. */
function inTurn<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

/** A fresh MySQL database, and the server's address on TCP, where the bench reads its counters when the crawl goes through the socket. */
type BenchDb = TestDb & { server?: string };

/** The same as mysqlDb(), reached through the server's Unix socket. */
function socketDb(socket: string): BenchDb {
  const tcp = mysqlDb();
  return { url: viaSocket(tcp.url, socket), cleanup: tcp.cleanup, server: tcp.url };
}

/** `anwc harvest` of the whole web from its home pages, in its own process, measured from outside and by its own exit hook. */
async function harvest(web: ChildWeb, hosts: string[], db: BenchDb, cli = CLI): Promise<Measured> {
  // The seeds go in through the build that harvests, whose schema may be older than this one's.
  const open = cli === CLI ? openStore : ((await import(pathToFileURL(join(cli, '..', '..', 'store', 'open.js')).href)) as { openStore: typeof openStore }).openStore;
  const store = await open(db.url);
  await store.addLinks(hosts.map((host) => ({ url: `http://${host}:${web.port}/`, host, depth: 0 })));
  await store.close();
  const usage = join(mkdtempSync(join(tmpdir(), 'anwc-crawl-usage-')), 'usage.json');
  const args = ['--import', pathToFileURL(HOOK).href, cli, 'harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test',
    '--delay', '0', '--concurrency', String(CONCURRENCY), '--max-depth', '1000000', '--progress', 'none', '--json'];
  const mysqlUrl = db.url.startsWith('mysql:') ? db.server ?? db.url : undefined;
  // Round trips are counted as writes to the server's TCP port.
  const tcpPort = mysqlUrl === db.url ? new URL(mysqlUrl).port || '3306' : undefined;
  const db0 = mysqlUrl ? await serverCounters(mysqlUrl) : undefined;
  const t0 = performance.now();
  const out = await new Promise<string>((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ANWC_BENCH_USAGE: usage, ...(tcpPort ? { ANWC_BENCH_DB_PORT: tcpPort } : {}) } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    // Its banner would land in the middle of the bench's tables; what it says is shown when it fails.
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? done(stdout) : fail(new Error(`anwc harvest exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' / ')}`))));
  });
  const ms = performance.now() - t0;
  const db1 = mysqlUrl ? await serverCounters(mysqlUrl) : undefined;
  const own = JSON.parse(readFileSync(usage, 'utf8')) as { cpuMs: number; maxRssKb: number; dbWrites: number };
  rmSync(join(usage, '..'), { recursive: true, force: true });
  const summary = JSON.parse(out.trim().split('\n').pop()!) as { pagesDone: number };
  return {
    pages: summary.pagesDone, ms, cpuMs: own.cpuMs, maxRssMb: own.maxRssKb / 1024,
    dbCpuMs: db0?.cpuMs !== undefined && db1?.cpuMs !== undefined ? db1.cpuMs - db0.cpuMs : undefined,
    // The bench's own two status reads are among them.
    dbStatements: db0 && db1 ? db1.statements - db0.statements - 2 : undefined,
    dbTrips: tcpPort ? own.dbWrites : undefined,
  };
}

function diskSqlite(): TestDb & { path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-crawl-'));
  const path = join(dir, 'crawl.sqlite');
  return { url: `sqlite:${path}`, path, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

const rate = (m: Measured) => (m.pages / m.ms) * 1000;
const med = (ms: Measured[], f: (m: Measured) => number | undefined) => {
  const xs = ms.map(f).filter((x): x is number => x !== undefined);
  return xs.length === 0 ? undefined : median(xs);
};
const ACTED = 'fetch + action';
const SOCKET = 'MariaDB/MySQL, Unix socket';
const BASE = 'SQLite, BENCH_CRAWL_BASE';
const fmt = (x: number | undefined, digits: number) => (x === undefined ? '–' : x.toFixed(digits));
/** The median of the rounds' figures, with the lowest and the highest. */
const range = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)})`;

async function speedTable(): Promise<string[]> {
  const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shape(HOSTS, PAGES)) });
  const generated = gradedWeb({ ...shape(HOSTS, PAGES), port: web.port });
  const paths = inTurn(generated.hosts.map((h) => [...h.pages.keys()].map((path) => ({ host: h.host, path }))));
  const runs: Record<string, Measured[]> = { ceiling: [], [ACTED]: [], SQLite: [] };
  // Each MySQL row of the table, and how a round makes its fresh database.
  const mysqlRuns: [string, () => BenchDb][] = [];
  if (benchMysql()) {
    mysqlRuns.push(['MariaDB/MySQL', mysqlDb]);
    const socket = await mysqlSocket();
    if (socket) mysqlRuns.push([SOCKET, () => socketDb(socket)]);
  }
  for (const [name] of mysqlRuns) runs[name] = [];
  if (BASE_CLI) runs[BASE] = [];
  const { peers, missing } = findPeers();
  for (const peer of peers) runs[peer.name] = [];
  try {
    await ceiling(web, paths.slice(0, 500)); // warm the server and the connections
    for (let r = 0; r < ROUNDS; r++) {
      runs.ceiling!.push(await ceiling(web, paths));
      runs[ACTED]!.push(await ceiling(web, paths, { act: true }));
      // With a base build, the two take turns going first, so that neither always runs on a web the other warmed.
      const builds = [['SQLite', CLI], ...(BASE_CLI ? [[BASE, BASE_CLI]] : [])] as const;
      for (const [name, cli] of r % 2 === 0 ? builds : [...builds].reverse()) {
        const sqlite = diskSqlite();
        try {
          runs[name]!.push(await harvest(web, gradedHosts(HOSTS), sqlite, cli));
        } finally {
          await sqlite.cleanup();
        }
      }
      for (const [name, make] of mysqlRuns) {
        const my = make();
        try {
          runs[name]!.push(await harvest(web, gradedHosts(HOSTS), my));
        } finally {
          await my.cleanup();
        }
      }
      for (const peer of peers) runs[peer.name]!.push(await peer.run(web.port, HOSTS, CONCURRENCY));
    }
  } finally {
    await web.stop();
  }
  const top = med(runs.ceiling!, rate)!;
  const acted = med(runs[ACTED]!, rate)!;
  const cpuPerPage = (ms: Measured[]) => med(ms, (m) => m.cpuMs / m.pages)!;
  const actedCpu = cpuPerPage(runs[ACTED]!);
  const rows = Object.entries(runs).map(([name, ms]) => {
    const pages = med(ms, (m) => m.pages)!;
    const r = med(ms, rate)!;
    const beyond = name === 'ceiling' || name === ACTED ? '–' : (cpuPerPage(ms) - actedCpu).toFixed(2);
    return `| ${name} | ${pages.toFixed(0)} | ${r.toFixed(0)} | ${(r / top).toFixed(2)} | ${(r / acted).toFixed(2)} | ${fmt(cpuPerPage(ms), 2)} | ${beyond} | ` +
      `${fmt(med(ms, (m) => (m.dbCpuMs === undefined ? undefined : m.dbCpuMs / m.pages)), 2)} | ` +
      `${fmt(med(ms, (m) => (m.dbStatements === undefined ? undefined : m.dbStatements / m.pages)), 1)} | ` +
      `${fmt(med(ms, (m) => (m.dbTrips === undefined ? undefined : m.dbTrips / m.pages)), 1)} | ${fmt(med(ms, (m) => m.maxRssMb), 0)} |`;
  });
  const sqliteRate = med(runs.SQLite!, rate)!;
  const sqliteRss = med(runs.SQLite!, (m) => m.maxRssMb)!;
  const versus = peers.map((peer) => {
    const ms = runs[peer.name]!;
    return `anwc on SQLite beside ${peer.name}: ${(sqliteRate / med(ms, rate)!).toFixed(1)}× its pages/s, ${(sqliteRss / med(ms, (m) => m.maxRssMb)!).toFixed(2)}× its peak RSS.`;
  });
  const rates = (name: string) => runs[name]!.map(rate);
  const cpu = (name: string) => runs[name]!.map((m) => m.cpuMs / m.pages);
  const rss = (name: string) => runs[name]!.map((m) => m.maxRssMb!);
  const beside = BASE_CLI ? [
    `This build's SQLite harvest beside the one at BENCH_CRAWL_BASE (${BASE_CLI}), round by round: ` +
      `${range(perRound(rates('SQLite'), rates(BASE)), 2)}× its pages/s, ${range(cpu('SQLite').map((c, i) => c - cpu(BASE)[i]!), 3)} ms of CPU a page more.`,
  ] : [];
  const goals: Goal[] = [
    { name: 'SQLite, pages/s of fetch + action', values: perRound(rates('SQLite'), rates(ACTED)), atLeast: 0.6, digits: 2 },
    { name: 'SQLite, CPU beyond fetch + action', values: cpu('SQLite').map((c, i) => c - cpu(ACTED)[i]!), atMost: 0.35, digits: 2, unit: 'ms a page' },
  ];
  const maria = mysqlRuns[0]?.[0];
  if (maria) {
    goals.push(
      { name: 'MariaDB, pages/s of fetch + action', values: perRound(rates(maria), rates(ACTED)), atLeast: 0.4, digits: 2 },
      {
        name: 'MariaDB, its server\'s CPU', atMost: 1.0, digits: 2, unit: 'ms a page',
        values: runs[maria]!.flatMap((m) => (m.dbCpuMs === undefined ? [] : [m.dbCpuMs / m.pages])),
      },
    );
  }
  for (const peer of peers) {
    goals.push({ name: `SQLite, pages/s of ${peer.name}'s`, values: perRound(rates('SQLite'), rates(peer.name)), atLeast: peer.timesGoal, digits: 1, unit: '×' });
    if (peer.memoryGoal) goals.push({ name: `SQLite, peak RSS of ${peer.name}'s`, values: perRound(rss('SQLite'), rss(peer.name)), atMost: 1, digits: 2, unit: '×' });
  }
  return [
    `## Crawl speed: ${HOSTS} hosts × ${PAGES} pages (${paths.length} documents with robots.txt and home pages), ${LINKS} links a page, ${CONCURRENCY} in flight, no delay; medians of ${ROUNDS} interleaved rounds`,
    '',
    '| client | pages | pages/s | of ceiling | of fetch + action | CPU ms/page | beyond fetch + action | DB server CPU ms/page | DB statements/page | DB round trips/page | peak RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'ceiling: plain undici request() of every document, the same concurrency on a connection a host as the crawler\'s, no parsing or storing (its CPU is the bench process\'s).',
    `${ACTED}: the same, and the narrative action (parse, blocks, thesis rules, band keys) on every page, in the bench`,
    'process: the work a crawl cannot leave out, before it walks, stores or checks anything. "Beyond fetch + action" is a',
    'client\'s CPU ms a page less that row\'s: what storing, the frontier, the walker, politeness and near-copies cost.',
    'The speed goals: SQLite at 0.6 of fetch + action or more (0.35 ms beyond it or less); MariaDB at 0.4 or more, its server at 1.0 ms a page or less.',
    'anwc: `anwc harvest` of the whole web from its home pages in its own process, thesis rules, robots.txt and every address check on;',
    'wall time includes start-up. DB server CPU is read from /proc for a MySQL server on this machine; DB statements',
    'from its Questions counter; DB round trips are the crawler\'s writes to the server\'s socket (a transaction sends',
    'several statements a trip: on loopback the trips, not the statements, cost the crawler most). The socket row',
    'reaches the same server through its Unix socket (`--db mysql://…@localhost/db?socket=PATH`), when it is on this machine.',
    'Peers walk the same web from its home pages with robots.txt obeyed, the same pages in flight and every <p> read, storing',
    'nothing (bench/peers/); their pages are those they report, their CPU and peak RSS their own process\'s. The goals: 4× Crawlee',
    'and 6× Scrapy in pages/s or more, at no more than Crawlee\'s memory.',
    ...versus,
    ...beside,
    ...missing,
    '',
    'The goals, judged round by round (each round\'s ratio is of the rows measured in that round):',
    '',
    ...goals.map(goalLine),
  ];
}

/**
 * The same crawl on real pages (real-web.ts): the graded web's pages are small, and a figure on
 * them is not a figure on the web. `fetch + action` and the SQLite harvest, in interleaved rounds.
 */
async function realTable(): Promise<string[]> {
  if (REAL_PAGES === 0) return ['', 'Real pages: skipped, BENCH_CRAWL_REAL_PAGES is 0.'];
  const missing = needsShared(...REAL_PAGE_DIRS);
  if (missing) return ['', `Real pages: skipped, ${missing}.`];
  const shape = { hosts: HOSTS, pagesPerHost: REAL_PAGES };
  const web = await startChildWeb('real', { ANWC_REAL_SHAPE: JSON.stringify(shape) });
  const real = realWeb(HOSTS, REAL_PAGES, web.port);
  const paths = inTurn(real.hosts.map((h) => [...h.pages.keys()].map((path) => ({ host: h.host, path }))));
  const runs: Record<string, Measured[]> = { [ACTED]: [], SQLite: [] };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      runs[ACTED]!.push(await ceiling(web, paths, { act: true, charset: true }));
      const sqlite = diskSqlite();
      try {
        runs.SQLite!.push(await harvest(web, real.hosts.map((h) => h.host), sqlite));
      } finally {
        await sqlite.cleanup();
      }
    }
  } finally {
    await web.stop();
  }
  const acted = med(runs[ACTED]!, rate)!;
  const rows = Object.entries(runs).map(([name, ms]) => {
    const r = med(ms, rate)!;
    return `| ${name} | ${med(ms, (m) => m.pages)!.toFixed(0)} | ${r.toFixed(0)} | ${(r / acted).toFixed(2)} | ` +
      `${med(ms, (m) => m.cpuMs / m.pages)!.toFixed(2)} | ${fmt(med(ms, (m) => m.maxRssMb), 0)} |`;
  });
  return [
    '',
    `## Real pages: ${HOSTS} hosts × ${REAL_PAGES} pages of ../shared's HTML (${real.sources} pages in turn, ${(real.meanBytes / 1024).toFixed(0)} kB on average), ${CONCURRENCY} in flight, no delay; medians of ${ROUNDS} interleaved rounds`,
    '',
    '| client | pages | pages/s | of fetch + action | CPU ms/page | peak RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'The pages of the two extraction sets and the corpus books, their own links pointed off the crawl and five links to',
    'their host\'s pages added (bench/real-web.ts); each decoded by its charset. Reading such a page costs the action',
    'twenty to thirty times a graded page (bench action): on the web, the action\'s thread, not the store, bounds a harvest.',
  ];
}

/** The hot statements of a page (frontier, near-copies), and the plan SQLite chose for each on the largest store of the sweep. */
function plans(path: string): string[] {
  const db = new Database(path, { readonly: true });
  const statements: [string, string, unknown[]][] = [
    ...(['discovery', 'priority'] as const).flatMap((order): [string, string, unknown[]][] => [
      [`next pending link of a host (${order})`, leaseProbes(order).pending, [1, 0, CLAIM_BATCH]],
      [`next expired lease of a host (${order})`, leaseProbes(order).expired, [1, 0, CLAIM_BATCH]],
    ]),
    ['live leases of a host', LIVE_LEASES, [1, 0]],
    ['a link by URL', 'SELECT id FROM links WHERE url_hash = ?', ['x']],
    ['band keys of the nodes written since the last near-copy search', BAND_ROWS_AFTER, [1]],
    ['near-copy candidates', CANDIDATE_ROWS, ['[1,2]']],
  ];
  try {
    return statements.map(([what, sql, params]) =>
      `| ${what} | ${(db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ')} |`);
  } finally {
    db.close();
  }
}

/** The harvest the memory goal names. */
const MEMORY_GOAL_PAGES = 100_000;

async function sweepTable(): Promise<string[]> {
  if (SWEEP.length === 0) return [];
  const rows: string[] = [];
  let planRows: string[] = [];
  let first: number | undefined;
  let largest: Measured | undefined;
  for (const total of SWEEP) {
    const perHost = Math.max(1, Math.round(total / HOSTS));
    const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shape(HOSTS, perHost)) });
    const db = diskSqlite();
    try {
      const m = await harvest(web, gradedHosts(HOSTS), db);
      const r = rate(m);
      first ??= r;
      if (m.pages > (largest?.pages ?? 0)) largest = m;
      rows.push(`| ${HOSTS} × ${perHost} | ${m.pages} | ${r.toFixed(0)} | ${(r / first).toFixed(2)} | ${(m.cpuMs / m.pages).toFixed(2)} | ${m.maxRssMb!.toFixed(0)} |`);
      planRows = plans(db.path);
    } finally {
      await web.stop();
      await db.cleanup();
    }
  }
  return [
    '',
    '## The same crawl as the web grows, on disk-backed SQLite',
    '',
    '| hosts × pages | pages | pages/s | vs smallest | CPU ms/page | peak RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'The plans of the statements that lease a host\'s next link and find near-copies, on the largest store: each',
    'seeks the head of one queue of one host (pending links by the walk\'s order; expired and live leases, few at',
    'any time), or the band keys of the nodes written after the last one read (the near-copy search keeps the rest in memory), or the candidates by id.',
    '',
    '| statement | SQLite plan |',
    '| --- | --- |',
    ...planRows,
    '',
    'The memory goal (issue: speed), on the largest harvest of the sweep:',
    '',
    largest!.pages >= MEMORY_GOAL_PAGES
      ? goalLine({ name: `peak RSS of the ${largest!.pages}-page harvest`, values: [largest!.maxRssMb!], atMost: 250, digits: 0, unit: 'MB' })
      : `- peak RSS of a ${MEMORY_GOAL_PAGES}-page harvest ≤ 250 MB: not measured (the sweep's largest harvest was ${largest!.pages} pages; BENCH_CRAWL_SWEEP with ${MEMORY_GOAL_PAGES} measures it)`,
  ];
}

/** The commands the start-up goal names (issue: speed): at most 1.4× `node -e 0`. */
const STARTUP_GOALS = ['anwc --version', 'anwc stem walking', 'anwc harvest --help'];

function startupTable(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-startup-'));
  const db = `sqlite:${join(dir, 's.sqlite')}`;
  const env = { ...process.env, ANWC_DB: db };
  spawnSync(process.execPath, [CLI, 'import', join(dist, '..', 'ane-markup', 'sample.ane')], { env });
  // As `anwc` runs them: main.js with no flag of Node's (anwc sets its own inside, src/cli/node-flags.ts).
  const commands: [string, string[]][] = [
    ['node -e 0 (baseline)', ['-e', '0']],
    ['anwc --version', [CLI, '--version']],
    ['anwc --help', [CLI, '--help']],
    ['anwc stem walking', [CLI, 'stem', 'walking']],
    ['anwc stats', [CLI, 'stats']],
    ['anwc pick lighthouse', [CLI, 'pick', 'lighthouse']],
    // A page the build wrote (src/cli/help-pages.ts); the commands above that run load the CLI.
    ['anwc harvest --help', [CLI, 'harvest', '--help']],
    ['anwc harvest --help, help left to the CLI', [join(dist, 'src', 'cli', 'cli.js'), 'harvest', '--help']],
  ];
  try {
    // Interleaved rounds: a burst of load on a shared machine lands on one round of every command, not on all of one.
    const times = commands.map((): number[] => []);
    for (let round = 0; round < 7; round++) {
      commands.forEach(([, args], i) => {
        const t0 = performance.now();
        spawnSync(process.execPath, args, { env, stdio: 'ignore' });
        times[i]!.push(performance.now() - t0);
      });
    }
    const base = median(times[0]!);
    // A page older than the compiled CLI is not served (a build by tsc alone): the help rows would time yargs, not what a user runs.
    const stale = storedHelp('harvest') === undefined;
    return [
      '',
      '## Start-up: wall time of a whole command, median of 7 interleaved rounds',
      '',
      '| command | ms | vs node -e 0 |',
      '| --- | ---: | ---: |',
      ...commands.map(([name], i) => {
        const ms = median(times[i]!);
        return `| ${name} | ${ms.toFixed(0)} | ${(ms / base).toFixed(2)} |`;
      }),
      ...(stale ? ['', 'The help pages are older than the compiled CLI (built by tsc alone, not by `npm run build`): `anwc harvest --help` ' +
        'was answered by the full CLI, as in the last row, so its row and its goal do not measure what a user runs; npm run build writes the pages.'] : []),
      '',
      'The goals, judged by the median of the rounds (one start-up is too short for a round to judge it):',
      '',
      ...STARTUP_GOALS.map((name) => {
        const i = commands.findIndex(([n]) => n === name);
        // Timed on stale pages, the help's start is not what a user gets (said above the goals).
        const values = stale && name.endsWith('--help') ? [] : perRound(times[i]!, times[0]!);
        return goalLine({ name: `${name}, wall time of node -e 0's`, values, atMost: 1.4, digits: 2, unit: '×', judge: 'median' });
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<string> {
  return [...(await speedTable()), ...(await realTable()), ...(await sweepTable()), ...startupTable()].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
