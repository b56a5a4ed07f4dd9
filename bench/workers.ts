import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import { benchMysql, mysqlDb, sqliteDb, type TestDb } from '../test/support/db.js';
import { clusterDb, GALERA_BASE } from '../test/support/galera.js';
import { startChildWeb, type ChildWeb } from './harvest.js';

/**
 * Several harvest processes on one database (`anwc harvest --workers N`), where politeness and
 * not CPU is the limit: tiny pages on H hosts, a delay D between requests to a host, so the
 * ceiling is H × 1000 / D pages per second whatever the number of processes. A shared crawl keeps
 * under it (the hosts' delay is claimed in the database) and should come near it; the table gives
 * pages/s and the ratio to the ceiling for 1, 2 and 4 workers, on SQLite and, when
 * ANWC_TEST_MYSQL is set, on MariaDB/MySQL, and when ANWC_TEST_GALERA is set, on a Galera
 * cluster (scripts/galera.sh start), the workers spread over its nodes.
 *
 *   npx tsc -p . && ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ \
 *     ANWC_TEST_GALERA=mysql://root@127.0.0.1:3311,127.0.0.1:3312,127.0.0.1:3313/ node dist/bench/run.js workers
 *
 * Knobs: BENCH_WORKERS_HOSTS (20), BENCH_WORKERS_PAGES (30 per host), BENCH_WORKERS_DELAY_MS (200).
 */

const HOSTS = Number(process.env.BENCH_WORKERS_HOSTS ?? 20);
const PAGES = Number(process.env.BENCH_WORKERS_PAGES ?? 30);
const DELAY_MS = Number(process.env.BENCH_WORKERS_DELAY_MS ?? 200);
const COUNTS = [1, 2, 4];

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

export async function main(): Promise<string> {
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
