import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/open.js';
import { stem } from '../src/text/stem.js';
import { benchMysql, mysqlDb, sqliteDb, type TestDb } from '../test/support/db.js';
import { TOPIC } from './graded-web.js';
import { interval, perPage, readTally, type Tally } from './graded-walk.js';
import { mean } from './stats.js';
import type { ChildWeb } from './harvest.js';

/**
 * Does the wheel hold with several workers? The same walk as `anwc harvest` runs it, once as one
 * process with two fetch slots and once as `--workers 2` with one slot each: the same pages in
 * flight, the same whole-run budget, one wheel (in the database) or two processes' copies of it.
 * If the workers' copies drift from the shared scores, the second run spends more of its pages on
 * hosts that give nothing and fewer on the rich hosts on the topic.
 */

export interface Backend {
  name: string;
  fresh: () => TestDb;
}

export const backends = (): Backend[] => [
  { name: 'SQLite', fresh: sqliteDb },
  ...(benchMysql() ? [{ name: 'MariaDB/MySQL', fresh: mysqlDb }] : []),
];

export interface CliWalk {
  name: string;
  args: string[];
}

export interface CliSetup {
  budget: number;
  depth: number;
  seeds: string[];
  /** Fetch slots of the whole run, shared out over the workers. */
  slots: number;
  workers: number;
}

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** One `anwc harvest` on a fresh database seeded with the search results for TOPIC; what it fetched and found, read back. */
export async function cliWalkOnce(web: ChildWeb, backend: Backend, walk: CliWalk, seed: number, setup: CliSetup): Promise<Tally & { barren: number }> {
  const db = backend.fresh();
  try {
    const store = await openStore(db.url);
    try {
      const [word] = await store.ensureMetaWords([{ word: TOPIC, stem: stem(TOPIC) }]);
      await store.recordSeeds(
        { provider: 'file', terms: TOPIC, results: setup.seeds, metaWordIds: [word!.id] },
        setup.seeds.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })),
      );
    } finally {
      await store.close();
    }
    const args = [
      CLI, 'harvest', '--db', db.url, ...web.resolve.flatMap((r) => ['--resolve', r]), ...web.hosts.flatMap((h) => ['--hosts', h]),
      '--delay', '0', '--seed', String(seed), '--max-pages', String(setup.budget), '--max-depth', String(setup.depth),
      '--concurrency', String(setup.slots / setup.workers), '--progress', 'none', '--json',
      ...(setup.workers > 1 ? ['--workers', String(setup.workers)] : []), ...walk.args,
    ];
    const code = await new Promise<number | null>((done) => spawn(process.execPath, args, { stdio: 'ignore' }).on('close', done));
    if (code !== 0) throw new Error(`anwc harvest ${walk.args.join(' ')} on ${backend.name} exited with ${code}`);
    return await readTally(db.url);
  } finally {
    await db.cleanup();
  }
}

/** The table's rows for one walk: one process with 2 fetch slots, then `--workers 2` sharing them; the ratios are of the means (per seed they swing with a few nodes). */
export function workerRows(
  label: string, one: (Tally & { barren: number })[], two: (Tally & { barren: number })[], rich: string[][],
): string[] {
  const { nodes, topicNodes } = perPage;
  const onRich = (ts: Tally[]) => ts.map((t, s) => rich[s]!.reduce((n, h) => n + (t.byHost.get(h) ?? 0), 0) / Math.max(1, t.fetched));
  const barren = (ts: (Tally & { barren: number })[]) => ts.map((t) => t.barren / Math.max(1, t.fetched));
  const over = (f: (t: Tally) => number) => `${(mean(two.map(f)) / Math.max(1e-9, mean(one.map(f)))).toFixed(2)}×`;
  const row = (name: string, ts: (Tally & { barren: number })[], ratios: string) =>
    `| ${label}, ${name} | ${interval(ts.map((t) => t.fetched), 0)} | ${interval(onRich(ts))} | ${interval(barren(ts))} | ${interval(ts.map(nodes))} | ${interval(ts.map(topicNodes))} | ${ratios} |`;
  return [row('1 process', one, '1 · 1'), row('2 workers', two, `${over(nodes)} · ${over(topicNodes)}`)];
}
