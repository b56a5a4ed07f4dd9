import { spawn, type ChildProcess } from 'node:child_process';
import type { Store } from '../store/store.js';
import { waitingText } from './report/waiting.js';
import { startingAt } from '../store/url.js';
import { EXIT } from './exit.js';

/**
 * `anwc harvest --workers N`: N harvest processes on this machine, on the one database, under one
 * progress line. Each is an ordinary `anwc harvest` (the store makes them one crawl: leases, the
 * hosts' politeness and the wheel are shared there), started in its own process group so that a
 * terminal's Ctrl-C reaches this process alone, which passes it on once to each: they finish
 * their pages in flight and save. A second Ctrl-C passes on the second, and they stop at once.
 */

/** Set in each worker's environment (its number): the harvest knows it is one of several. */
export const WORKER_ENV = 'ANWC_WORKER';
/** Set in each worker's environment: how many workers share this machine. */
export const WORKERS_ENV = 'ANWC_WORKERS';

/**
 * Whether a harvest's store gets a thread of its own (store/thread.ts). SQLite's calls block the
 * thread that makes them, so its store always does. MySQL's do not, and its thread pays only with
 * a core to spare for it: one process on two cores went from 695 to 781 pages/s with it (bench
 * crawl). Where every core already runs a worker, the thread can only add its messages: two and
 * four workers on two cores gave 444 and 324 pages/s with one each against 483 and 376 without
 * (bench workers, 2026-11-29, one run each; that bench spreads by some 15 % here).
 */
export function storeOnThread(kind: 'sqlite' | 'mysql', workers: number, cores: number): boolean {
  return kind === 'sqlite' || spareCore(workers, cores);
}

/**
 * Whether a harvest's narrative action gets a thread of its own (walk/actions/narrative-thread.ts):
 * on the same terms as a MySQL store's, a core to spare for each worker; on one core, or a core a
 * worker, the action stays on the thread that fetched the page.
 */
export function actionOnThread(workers: number, cores: number): boolean {
  return spareCore(workers, cores);
}

const spareCore = (workers: number, cores: number): boolean => cores >= 2 * workers;

export interface WorkerRun {
  code: number | null;
  /** The worker's run summary (its `--json` line), when it printed one. */
  summary?: { stop: string; pagesDone?: number; pagesFetched?: number; retries?: number; newNodes?: number; offTopic?: number; offTopicDropped?: number };
}

/**
 * Flags this process has acted on (--retry-failed put the failed links back once) or sets itself,
 * with whether each takes a value. The database goes to each worker by its environment, never on
 * a command line that `ps` shows with its password.
 */
const OURS: Record<string, boolean> = { '--workers': true, '--progress': true, '--kind': true, '--retry-failed': false, '--json': false, '--db': true, '--max-pages': true, '--seed': true };

/** The harvest's own flags, less those above: each worker gets the rest, its share of --max-pages (workerBudgets) and its seed (workerSeed). */
export function workerArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.split('=')[0]!;
    if (name in OURS) {
      if (OURS[name] && !a.includes('=')) i++;
      continue;
    }
    out.push(a);
  }
  return [...out, '--progress', 'none', '--json'];
}

/**
 * --max-pages is the budget of the whole run: each worker is given its share, the remainder to the
 * first ones. A worker whose share would be nothing is not started.
 */
export function workerBudgets(n: number, maxPages: number | undefined): (number | undefined)[] {
  if (maxPages === undefined) return Array.from({ length: n }, () => undefined);
  return Array.from({ length: n }, (_, k) => Math.floor(maxPages / n) + (k < maxPages % n ? 1 : 0)).filter((b) => b > 0);
}

/**
 * Worker k's --seed: workers given one seed would draw the same domains in the same order and
 * contend for them, so each draws its own stream, and the run can still be repeated.
 */
export const workerSeed = (seed: number, k: number): number => seed + k;

export async function runWorkers(
  n: number, args: string[], store: Store, o: { db: string; progress: boolean; maxPages?: number; seed?: number; stderr?: NodeJS.WritableStream },
): Promise<WorkerRun[]> {
  const stderr = o.stderr ?? process.stderr;
  const children: ChildProcess[] = [];
  const runs = workerBudgets(n, o.maxPages).map((budget, k) => {
    const own = [...args, ...(budget === undefined ? [] : ['--max-pages', String(budget)]), ...(o.seed === undefined ? [] : ['--seed', String(workerSeed(o.seed, k))])];
    // On a cluster, worker k starts on the k-th node and fails over to the others.
    const env = { ...process.env, ANWC_DB: startingAt(o.db, k), [WORKER_ENV]: String(k + 1), [WORKERS_ENV]: String(n) };
    // The channel tells a worker when this process is gone, even by SIGKILL: it stops as at Ctrl-C (cli/main.ts).
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...own], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], detached: true, env });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    prefixLines(child.stderr!, `[worker ${k + 1}] `, stderr);
    // Ctrl-C can reach a worker still starting, before it listens for it: it ends by the signal.
    return new Promise<WorkerRun>((done) => child.on('close', (code, signal) =>
      done({ code: code ?? (signal === 'SIGINT' ? EXIT.INTERRUPTED : null), summary: lastJson(out) })));
  });
  let signals = 0;
  const pass = () => {
    signals++;
    stderr.write(signals === 1 ? '\nanwc: asking the workers to finish their pages in flight and save\n' : 'anwc: stopping the workers at once\n');
    for (const c of children) if (c.exitCode === null && c.pid !== undefined) c.kill('SIGINT');
  };
  process.on('SIGINT', pass);
  process.on('SIGTERM', pass);
  const started = Date.now();
  const seen = new Map<string, number>();
  const timer = o.progress ? setInterval(() => void progressLine(store, started, seen).then((l) => stderr.write(l)).catch(() => undefined), 1000) : undefined;
  try {
    return await Promise.all(runs);
  } finally {
    if (timer) clearInterval(timer);
    process.removeListener('SIGINT', pass);
    process.removeListener('SIGTERM', pass);
  }
}

/** The workers' exit: interrupted if any was, else the first failure, else OK. */
export function workersExit(runs: WorkerRun[]): number {
  if (runs.some((r) => r.code === EXIT.INTERRUPTED)) return EXIT.INTERRUPTED;
  return runs.find((r) => r.code !== EXIT.OK)?.code ?? (runs.some((r) => r.code === null) ? EXIT.INTERNAL : EXIT.OK);
}

export function workersSummary(runs: WorkerRun[]): string[] {
  const pages = runs.reduce((a, r) => a + (r.summary?.pagesDone ?? 0), 0);
  const nodes = runs.reduce((a, r) => a + (r.summary?.newNodes ?? 0), 0);
  const offTopic = runs.reduce((a, r) => a + (r.summary?.offTopic ?? 0), 0);
  const dropped = runs.reduce((a, r) => a + (r.summary?.offTopicDropped ?? 0), 0);
  return [
    `harvest by ${runs.length} workers: ${pages} pages, ${nodes} new nodes; stored, on no topic: ${offTopic}${dropped > 0 ? `; dropped, on no topic: ${dropped}` : ''}`,
    ...runs.map((r, k) => `  worker ${k + 1}: ${r.summary ? `stopped: ${r.summary.stop}, ${r.summary.pagesDone ?? 0} pages, ${r.summary.newNodes ?? 0} new nodes` : 'no summary'} (exit ${r.code ?? 'killed'})`),
  ];
}

/**
 * One line for the run: the pages every worker started, those that have ended included (`seen`
 * keeps each worker's last count: a worker that ends leaves the live list, its pages do not leave
 * the run), the frontier and the nodes.
 */
export async function progressLine(store: Store, started: number, seen: Map<string, number>): Promise<string> {
  const now = Date.now();
  const [workers, sum, due] = await Promise.all([store.liveWorkers(started - 1000), store.summary(), store.waitingRetries(now)]);
  const seconds = Math.max(1, (now - started) / 1000);
  for (const w of workers) seen.set(w.owner, Math.max(w.pages, seen.get(w.owner) ?? 0));
  const pages = [...seen.values()].reduce((a, p) => a + p, 0);
  const waiting = due ? `; ${waitingText(due, now)}` : '';
  return `anwc: ${workers.length} workers, ${pages} pages started (${(pages / seconds).toFixed(1)}/s), ${sum.links.pending ?? 0} links waiting, ${sum.nodes.crawler} crawler nodes${waiting}\n`;
}

function lastJson(out: string): WorkerRun['summary'] {
  const line = out.trim().split('\n').pop();
  try {
    return line ? (JSON.parse(line) as WorkerRun['summary']) : undefined;
  } catch {
    return undefined;
  }
}

function prefixLines(from: NodeJS.ReadableStream, prefix: string, to: NodeJS.WritableStream): void {
  let rest = '';
  from.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const l of lines) to.write(`${prefix}${l}\n`);
  });
  from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
}
