import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import { benchMysql, mysqlDb, sqliteDb, type TestDb } from '../test/support/db.js';
import { clusterDb, GALERA_BASE } from '../test/support/galera.js';
import { crawlShape, hostName, type GradedShape } from './graded-web.js';
import { startChildWeb, type ChildWeb } from './harvest.js';
import { serverCounters } from './mysql-server.js';
import { median } from './stats.js';
import { count } from './knobs.js';

/**
 * Several harvest processes on one database (`anwc harvest --workers N`). First where the CPU is
 * the limit: the crawl bench's web of prose pages, no delay, on MariaDB/MySQL (ANWC_TEST_MYSQL)
 * and on Galera (ANWC_TEST_GALERA): pages/s, and the database server's CPU a page and its cores
 * busy, from which docs/scale.md estimates how many workers one server feeds. Then where
 * politeness and not CPU is the limit: tiny pages on H hosts, a delay D between requests to a host, so the
 * ceiling is H × 1000 / D pages per second whatever the number of processes. A shared crawl keeps
 * under it (the hosts' delay is claimed in the database) and should come near it; the table gives
 * pages/s and the ratio to the ceiling for 1, 2 and 4 workers, on SQLite and, when
 * ANWC_TEST_MYSQL is set, on MariaDB/MySQL, and when ANWC_TEST_GALERA is set, on a Galera
 * cluster (scripts/galera.sh start), the workers spread over its nodes.
 *
 *   npx tsc -p . && ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ \
 *     ANWC_TEST_GALERA=mysql://root@127.0.0.1:3311,127.0.0.1:3312,127.0.0.1:3313/ node dist/bench/run.js workers
 *
 * Knobs: BENCH_WORKERS_HOSTS (20), BENCH_WORKERS_PAGES (30 per host), BENCH_WORKERS_DELAY_MS (200);
 * for the first table BENCH_WORKERS_CPU_PAGES (150 a host on 20 hosts; 0 for none),
 * BENCH_WORKERS_CPU_ROUNDS (2, the median taken).
 */

const HOSTS = count('BENCH_WORKERS_HOSTS', 20);
const PAGES = count('BENCH_WORKERS_PAGES', 30);
const DELAY_MS = count('BENCH_WORKERS_DELAY_MS', 200, 0);
const COUNTS = [1, 2, 4];
const CPU_HOSTS = 20;
const CPU_PAGES = count('BENCH_WORKERS_CPU_PAGES', 150, 0);
const CPU_ROUNDS = count('BENCH_WORKERS_CPU_ROUNDS', 2);
/** Fetch slots of each worker: the crawl bench's 16 in flight, over two workers' worth. */
const CPU_CONCURRENCY = 8;

async function runOnce(web: ChildWeb, fresh: () => TestDb, workers: number): Promise<{ pages: number; ms: number; code: number | null }> {
  const db = fresh();
  try {
    const store = await openStore(db.url);
    const urls = [];
    for (let h = 0; h < HOSTS; h++) for (let p = 0; p < PAGES; p++) urls.push(`http://w${h}.tiny.test:${web.port}/p${p}.html`);
    for (let i = 0; i < urls.length; i += 500) await store.addLinks(urls.slice(i, i + 500).map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
    await store.close();
    const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
    const args = [cli, 'harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', String(DELAY_MS / 1000),
      '--concurrency', '8', '--workers', String(workers), '--progress', 'none'];
    const t0 = performance.now();
    const code = await new Promise<number | null>((done) => spawn(process.execPath, args, { stdio: 'ignore' }).on('close', done));
    const ms = performance.now() - t0;
    const after = await openStore(db.url);
    const done = (await after.summary()).links.done ?? 0;
    await after.close();
    return { pages: done, ms, code };
  } finally {
    await db.cleanup();
  }
}

/** The crawl bench's web: prose, navigation and a few tables on every host, five links a page. */
const cpuShape = (): GradedShape => crawlShape(CPU_HOSTS, CPU_PAGES);

interface ServerRun {
  pages: number;
  ms: number;
  /** CPU of the database server processes (every node of a cluster) over the run. */
  serverCpuMs?: number;
  statements: number;
}

/** One `anwc harvest --workers N` of the whole web from its home pages, no delay, with the servers' counters read around it. */
async function cpuRun(web: ChildWeb, db: TestDb, servers: string[], workers: number): Promise<ServerRun> {
  try {
    const store = await openStore(db.url);
    await store.addLinks(Array.from({ length: CPU_HOSTS }, (_, h) => ({ url: `http://${hostName(h)}:${web.port}/`, host: hostName(h), depth: 0 })));
    await store.close();
    const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
    const args = [cli, 'harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--max-depth', '1000000',
      '--concurrency', String(CPU_CONCURRENCY), '--workers', String(workers), '--progress', 'none'];
    const before = await Promise.all(servers.map(serverCounters));
    const t0 = performance.now();
    const code = await new Promise<number | null>((done) => spawn(process.execPath, args, { stdio: 'ignore' }).on('close', done));
    const ms = performance.now() - t0;
    const after = await Promise.all(servers.map(serverCounters));
    if (code !== 0) throw new Error(`anwc harvest --workers ${workers} exited with ${code}`);
    const end = await openStore(db.url);
    const pages = (await end.summary()).links.done ?? 0;
    await end.close();
    const cpu = after.map((a, i) => (a.cpuMs === undefined || before[i]!.cpuMs === undefined ? undefined : a.cpuMs - before[i]!.cpuMs));
    return {
      pages, ms,
      serverCpuMs: cpu.every((c) => c !== undefined) ? cpu.reduce((n: number, c) => n + c!, 0) : undefined,
      // The bench's own two status reads of each server are among them.
      statements: after.reduce((n, a, i) => n + a.statements - before[i]!.statements - 2, 0),
    };
  } finally {
    await db.cleanup();
  }
}

async function cpuTable(): Promise<string[]> {
  // Each store, and how a run makes its fresh database and names the servers that hold it.
  const backends: [string, () => { db: TestDb; servers: string[] }][] = [];
  if (benchMysql()) {
    backends.push(['MariaDB/MySQL', () => {
      const db = mysqlDb();
      return { db, servers: [db.url] };
    }]);
  }
  if (GALERA_BASE) {
    backends.push(['Galera, 3 nodes', () => {
      const db = clusterDb();
      return { db, servers: db.servers.map((_, i) => db.on(i)) };
    }]);
  }
  if (CPU_PAGES <= 0 || backends.length === 0) {
    return ['(The table of workers where the CPU is the limit needs ANWC_TEST_MYSQL or ANWC_TEST_GALERA: skipped.)', ''];
  }
  const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(cpuShape()) });
  const rows: string[] = [];
  try {
    for (const [name, fresh] of backends) {
      let one: number | undefined;
      for (const n of COUNTS) {
        const runs: ServerRun[] = [];
        for (let r = 0; r < CPU_ROUNDS; r++) {
          const { db, servers } = fresh();
          runs.push(await cpuRun(web, db, servers, n));
        }
        const m = (f: (r: ServerRun) => number | undefined) => {
          const xs = runs.map(f).filter((x): x is number => x !== undefined);
          return xs.length === 0 ? undefined : median(xs);
        };
        const rate = m((r) => (r.pages / r.ms) * 1000)!;
        one ??= rate;
        const cpuPerPage = m((r) => (r.serverCpuMs === undefined ? undefined : r.serverCpuMs / r.pages));
        const busy = m((r) => (r.serverCpuMs === undefined ? undefined : r.serverCpuMs / r.ms));
        const f = (x: number | undefined, d: number) => (x === undefined ? '–' : x.toFixed(d));
        rows.push(`| ${name} | ${n} | ${m((r) => r.pages)} | ${rate.toFixed(0)} | ${(rate / one).toFixed(2)} | ${f(cpuPerPage, 2)} | ${f(busy, 2)} | ${f(m((r) => r.statements / r.pages), 1)} |`);
      }
    }
  } finally {
    await web.stop();
  }
  return [
    `## Workers where the CPU is the limit: ${CPU_HOSTS} hosts × ${CPU_PAGES} pages of prose, no delay, ${CPU_CONCURRENCY} in flight a worker, median of ${CPU_ROUNDS}`,
    '',
    '| store | workers | pages | pages/s | over 1 worker | server CPU ms/page | server cores busy | statements/page |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'Wall time of the whole `anwc harvest --workers N` (start-up included). Server CPU is every server process\'s',
    '(each node of a cluster), read from /proc; cores busy is that CPU over the wall time. The workers, the',
    'servers and the web share this machine\'s cores, so pages/s stops growing when they are spent, not',
    'when the server is: the server\'s CPU a page is what carries to a larger machine (docs/scale.md).',
    '',
  ];
}

export async function main(): Promise<string> {
  const cpu = await cpuTable();
  const web = await startChildWeb('tiny');
  const ceiling = (HOSTS * 1000) / DELAY_MS;
  const rows: string[] = [];
  try {
    const backends: [string, () => TestDb][] = [['SQLite', sqliteDb]];
    if (benchMysql()) backends.push(['MariaDB/MySQL', mysqlDb]);
    if (GALERA_BASE) backends.push(['Galera, 3 nodes', clusterDb]);
    for (const [name, fresh] of backends) {
      for (const n of COUNTS) {
        const r = await runOnce(web, fresh, n);
        const rate = (r.pages / r.ms) * 1000;
        rows.push(`| ${name} | ${n} | ${r.pages} | ${(r.ms / 1000).toFixed(1)} | ${rate.toFixed(1)} | ${ceiling.toFixed(1)} | ${(rate / ceiling).toFixed(2)} | ${r.code} |`);
      }
    }
  } finally {
    await web.stop();
  }
  return [
    ...cpu,
    `## Workers under politeness: ${HOSTS} hosts × ${PAGES} tiny pages, delay ${DELAY_MS} ms, ceiling ${ceiling.toFixed(0)} pages/s`,
    '',
    '| store | workers | pages | seconds | pages/s | ceiling | of ceiling | exit |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'Wall time of the whole `anwc harvest --workers N` (process start-up included); a host\'s first request',
    '(robots.txt) waits for no delay. Above 1.00 would mean a host got requests closer than the delay.',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
