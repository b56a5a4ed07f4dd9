import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import { crawlShape, hostName } from './graded-web.js';
import { startChildWeb } from './harvest.js';
import { count } from './knobs.js';

/**
 * Where a harvest's CPU goes (issue: speed): one `anwc harvest` of the crawl bench's web (20 hosts
 * × 500 pages, 16 in flight, no delay) into a SQLite file, under Node's sampling profiler; each
 * sample is put to the part of anwc it was in (the innermost frame of a known module, so that
 * SQLite's own work counts for the store statement that asked for it) and the table gives each
 * part's ms a page and share of the main thread's busy time, beside the action's thread (parse and
 * rules, where a core is to spare) and the store's (SQLite), then the store's heaviest functions. The profiler samples each thread's wall time: on a
 * machine with a core to spare, that is its CPU.
 *
 *   npm run build && node dist/bench/run.js profile
 *
 * Knobs: BENCH_PROFILE_HOSTS (20), BENCH_PROFILE_PAGES (500 a host), BENCH_PROFILE_KEEP (a folder to
 * leave the threads' .cpuprofile files in, a new folder in it each run, for Chrome DevTools; by default they go).
 */

const HOSTS = count('BENCH_PROFILE_HOSTS', 20);
const PAGES = count('BENCH_PROFILE_PAGES', 500);
const KEEP = process.env.BENCH_PROFILE_KEEP;
const dist = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(dist, 'src', 'cli', 'main.js');

/**
 * The parts, first match wins, by the script's URL and, for the near-copy search that shares
 * the store's files, by function: the store decides near-copies inside completePage.
 */
const NEAR_COPY_FUNCTIONS = /^(nodesSharingBands|heldCandidates|candidatesInRank|mostShared)$/;
const PARTS: [string, RegExp][] = [
  ['near-copies (MinHash, shingles)', /\/src\/store\/(near-copies|candidate-cache|band-index|sqlite\/bands)\.js|\/src\/text\/minhash\.js/],
  // The messages to and from each thread are that thread's cost: Node's worker code is passed
  // over (partOf), so the caller in src/ decides whose they are.
  ['store (SQLite statements and commits)', /\/src\/store\/|\/node_modules\/better-sqlite3\//],
  ['messages to and from the action\'s thread', /\/src\/walk\/actions\/narrative-(thread|worker)\.js$/],
  ['HTML parse', /\/src\/html\/|\/node_modules\/(node-html-parser|he|entities|css-select|domhandler)\//],
  ['rules (blocks, thesis heuristics, topic)', /\/src\/(extract|text)\/|\/src\/walk\/actions\//],
  ['HTTP and sockets', /\/node_modules\/undici\/|\/src\/web\/|^node:(net|http|_http|dns|buffer|stream|events|internal\/(stream|streams|net|dns|http))/],
  ['walker, frontier, politeness', /\/src\/walk\/|\/src\/harvest\//],
  ['URL parsing', /^node:internal\/url/],
];

interface ProfileNode { id: number; callFrame: { url: string; functionName: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

interface Shares { parts: Map<string, number>; busyMs: number; store: Map<string, number> }

/** Each sample's microseconds put to its part; idle left out; the store's functions on the side. */
function shares(p: Profile): Shares {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = (n: ProfileNode): string | undefined => {
    const { url, functionName } = n.callFrame;
    if (!url) return functionName === '(garbage collector)' ? 'garbage collection' : functionName === '(idle)' ? 'idle' : undefined;
    if (url.startsWith('node:internal/worker') || url === 'node:internal/per_context/messageport') return undefined;
    if (NEAR_COPY_FUNCTIONS.test(functionName) && /\/src\/store\//.test(url)) return PARTS[0]![0];
    return PARTS.find(([, re]) => re.test(url))?.[0] ?? 'other';
  };
  const parts = new Map<string, number>();
  const store = new Map<string, number>();
  p.samples.forEach((leaf, i) => {
    let part: string | undefined;
    let storeFn: string | undefined;
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      part ??= partOf(n);
      if (!storeFn && /\/src\/store\//.test(n.callFrame.url)) storeFn = `${n.callFrame.url.replace(/.*\/src\//, '')}:${n.callFrame.functionName || '(anonymous)'}`;
      if (part && (part !== 'store (SQLite statements and commits)' || storeFn)) break;
    }
    const us = p.timeDeltas[i]!;
    parts.set(part ?? 'other', (parts.get(part ?? 'other') ?? 0) + us);
    if (part === 'store (SQLite statements and commits)' && storeFn) store.set(storeFn, (store.get(storeFn) ?? 0) + us);
  });
  parts.delete('idle');
  const busyMs = [...parts.values()].reduce((a, b) => a + b, 0) / 1000;
  return { parts, busyMs, store };
}

export async function main(): Promise<string> {
  const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(crawlShape(HOSTS, PAGES)) });
  const dir = mkdtempSync(join(tmpdir(), 'anwc-profile-'));
  try {
    const db = `sqlite:${join(dir, 'harvest.sqlite')}`;
    const store = await openStore(db);
    await store.addLinks(Array.from({ length: HOSTS }, (_, h) => ({ url: `http://${hostName(h)}:${web.port}/`, host: hostName(h), depth: 0 })));
    await store.close();
    const profiles = KEEP ? mkdtempSync(join(mkdirSync(KEEP, { recursive: true }) ?? KEEP, 'harvest-')) : join(dir, 'profiles');
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profiles, CLI, 'harvest', '--db', db, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test',
      '--delay', '0', '--concurrency', '16', '--max-depth', '1000000', '--progress', 'none', '--json'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`anwc harvest exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
    const pages = (JSON.parse(r.stdout.trim().split('\n').pop()!) as { pagesDone: number }).pagesDone;
    // One profile a thread, named …<pid>.<thread id>.<seq>.cpuprofile: the main thread is 0; the
    // others are told apart by the worker script in their profile.
    const byThread = readdirSync(profiles).map((f) => {
      const p = JSON.parse(readFileSync(join(profiles, f), 'utf8')) as Profile;
      const has = (re: RegExp) => p.nodes.some((n) => re.test(n.callFrame.url));
      const thread = /\.0\.\d+\.cpuprofile$/.test(f) ? 'main' : has(/\/narrative-worker\.js$/) ? 'action' : has(/\/store\/thread-worker\.js$/) ? 'store' : 'other';
      return { thread, ...shares(p) };
    });
    const threads = ['main', 'action', 'store', 'other'].filter((t) => byThread.some((b) => b.thread === t));
    const us = (thread: string, part: string) => byThread.filter((t) => t.thread === thread).reduce((a, t) => a + (t.parts.get(part) ?? 0), 0);
    const busyUs = (thread: string) => byThread.filter((t) => t.thread === thread).reduce((a, t) => a + t.busyMs * 1000, 0);
    const mainBusyUs = busyUs('main');
    const msPage = (x: number) => (x / 1000 / pages).toFixed(3);
    const row = (name: string, of: (thread: string) => number) =>
      `| ${name} | ${msPage(of('main'))} | ${((100 * of('main')) / mainBusyUs).toFixed(1)} % | ${threads.slice(1).map((t) => msPage(of(t))).join(' | ')} |`;
    const storeFns = new Map<string, number>();
    for (const t of byThread) for (const [fn, x] of t.store) storeFns.set(fn, (storeFns.get(fn) ?? 0) + x);
    const names = [...new Set(byThread.flatMap((t) => [...t.parts.keys()]))];
    const label: Record<string, string> = { action: 'action\'s thread', store: 'store\'s thread', other: 'other threads' };
    return [
      `## Where the CPU of a ${pages}-page SQLite harvest goes (sampled, by thread)`,
      '',
      'The main thread fetches and walks; the action\'s thread parses and judges the pages (where the machine has a',
      'core to spare); the store\'s thread runs SQLite (the calls and their messages count to the store on both',
      'sides). The threads and the web\'s server share the machine\'s cores.',
      '',
      `| part | main thread, ms a page | of its busy time | ${threads.slice(1).map((t) => `${label[t]}, ms a page`).join(' | ')} |`,
      `| --- | ---: | ---: | ${threads.slice(1).map(() => '---:').join(' | ')} |`,
      ...names.sort((a, b) => us('main', b) - us('main', a)).map((n) => row(n, (t) => us(t, n))),
      row('**all (busy)**', busyUs),
      '',
      '| the store\'s heaviest functions, both threads (with the SQLite work under them) | ms a page |',
      '| --- | ---: |',
      ...[...storeFns].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, us]) => `| \`${name}\` | ${msPage(us)} |`),
      '',
      `The crawl bench's web: ${HOSTS} hosts × ${PAGES} pages, 16 in flight, no delay, every page of it.${KEEP ? ` The profiles: ${profiles}.` : ''}`,
    ].join('\n');
  } finally {
    await web.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
