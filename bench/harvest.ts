import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { HARVEST_DEFAULTS } from '../src/harvest/defaults.js';
import { harvest, type HarvestOptions } from '../src/harvest/harvest.js';
import { narrativeAction } from '../src/walk/actions/narrative.js';
import { openStore } from '../src/store/open.js';
import type { StrategyName } from '../src/walk/strategies/strategy.js';
import { Fetcher, type FetcherOptions } from '../src/web/fetcher.js';
import { mean, sd } from './stats.js';
import { count, counts } from './knobs.js';

/**
 * Harvest rate and harvest speed (issue 6, item 8).
 *
 * 1. Yield: new narrative nodes per fetched page, and the share of fetched pages that yielded a
 *    node, for the roulette wheel, bfs and dfs on the same local web with the same seed URLs and
 *    the same page budget, each run on a fresh SQLite file. One fetch slot, so every run is
 *    reproducible; the roulette runs once per random seed and is reported as mean ± standard
 *    deviation. Two webs: the corpus sites behind the test web's hub, and the demo web (good
 *    narrative sites beside a shop and a link farm).
 * 2. Speed: pages per second and CPU per page of a whole harvest (walker + store + extraction +
 *    fetcher) beside the plain Fetcher fetching the same URL list with the same concurrency, and
 *    beside Fetcher + the narrative action, in interleaved rounds. The web server runs in a child
 *    process, so only the crawler's CPU is counted.
 *
 * Everything is on 127.0.0.1: the webs' names reach the server through `resolve` mappings, the
 * crawl is scoped to their hosts, and any other name fails as DNS would without asking anyone.
 */

/** Page budgets on the corpus web: a short one, where the strategies part ways, and the 150. */
const BUDGETS = counts('BENCH_HARVEST_PAGES', '60,150');
const SPEED_BUDGET = 150;
const DEMO_BUDGET = count('BENCH_HARVEST_DEMO_PAGES', 20);
const ROULETTE_SEEDS = count('BENCH_HARVEST_SEEDS', 5);
const SPEED_ROUNDS = count('BENCH_HARVEST_ROUNDS', 4);
const CONCURRENCY = 4;
const TINY_HOSTS = 50;
const TINY_PER_HOST = 8;
const POLITE_RUNS = [
  { hosts: 8, perHost: 25, delayMs: 100 },
  { hosts: 20, perHost: 15, delayMs: 200 },
];

/** The local webs a bench can crawl; `tiny` answers every URL with a small page and no links. */
export type WebKind = 'corpus' | 'demo' | 'tiny' | 'graded' | 'real';

export interface ChildWeb {
  kind: WebKind;
  port: number;
  /** Seed URLs of a crawl (hub for the corpus, every home page for the demo). */
  seeds: string[];
  /** Host patterns the crawl stays in. */
  hosts: string[];
  resolve: string[];
  stop(): Promise<void>;
}

/**
 * A child's server of a web of named hosts: `build` makes `web` (hosts with their pages by path) and
 * `homes` once `port` is known, for pages whose links name their host and port.
 */
const hostsServer = (imports: string, htmlType: string, build: string) => `const { createServer } = await import('node:http');
${imports}
let byHost = new Map();
const server = createServer((req, res) => {
  const body = byHost.get(String(req.headers.host).replace(/:\\d+$/, ''))?.get(req.url);
  if (body === undefined) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found'); return; }
  res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : '${htmlType}' });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  ${build}
  byHost = new Map(web.hosts.map((h) => [h.host, h.pages]));
  process.stdout.write(JSON.stringify({ port, homes }) + '\\n');
});
process.stdin.on('end', () => { server.closeAllConnections(); server.close(() => process.exit(0)); }); process.stdin.resume();`;

const childCode: Record<WebKind, (dist: string) => string> = {
  corpus: (dist) => `const { startTestWeb } = await import(${JSON.stringify(pathToFileURL(join(dist, 'test/support/testweb.js')).href)});
const web = await startTestWeb(); const hosts = ['hub.test'];
process.stdout.write(JSON.stringify({ port: web.port, homes: hosts }) + '\\n');
process.stdin.on('end', () => web.close().then(() => process.exit(0))); process.stdin.resume();`,
  demo: (dist) => `const { startDemoWeb } = await import(${JSON.stringify(pathToFileURL(join(dist, 'src/demo/index.js')).href)});
const web = await startDemoWeb();
process.stdout.write(JSON.stringify({ port: web.port, homes: web.hosts }) + '\\n');
process.stdin.on('end', () => web.close().then(() => process.exit(0))); process.stdin.resume();`,
  graded: (dist) => hostsServer(
    `const { gradedWeb } = await import(${JSON.stringify(pathToFileURL(join(dist, 'bench/graded-web.js')).href)});`,
    'text/html; charset=utf-8',
    'const web = gradedWeb({ ...JSON.parse(process.env.ANWC_GRADED_SHAPE), port }); const homes = web.seedHosts;',
  ),
  // The real pages' charsets are the crawler's to find.
  real: (dist) => hostsServer(
    `const { realWeb } = await import(${JSON.stringify(pathToFileURL(join(dist, 'bench/real-web.js')).href)});`,
    'text/html',
    'const { hosts, pagesPerHost } = JSON.parse(process.env.ANWC_REAL_SHAPE); const web = realWeb(hosts, pagesPerHost, port); const homes = web.hosts.map((h) => h.host);',
  ),
  tiny: () => `const { createServer } = await import('node:http');
const page = Buffer.from('<!DOCTYPE html><html><head><title>t</title></head><body><p>A small page.</p></body></html>');
const robots = Buffer.from('User-agent: *\\nAllow: /\\n');
const server = createServer((req, res) => {
  const body = req.url === '/robots.txt' ? robots : page;
  res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port, homes: [] }) + '\\n'));
process.stdin.on('end', () => { server.closeAllConnections(); server.close(() => process.exit(0)); }); process.stdin.resume();`,
};

/** Starts a local web in a child process (its CPU is not the crawler's) on a free port of 127.0.0.1. */
export async function startChildWeb(kind: WebKind, env: Record<string, string> = {}): Promise<ChildWeb> {
  const dist = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--input-type=module', '-e', childCode[kind](dist)], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const hello = await new Promise<{ port: number; homes: string[] }>((ok, fail) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) ok(JSON.parse(buf.slice(0, buf.indexOf('\n'))) as { port: number; homes: string[] });
    });
    child.once('exit', (c) => fail(new Error(`${kind} web exited with ${c}`)));
  });
  const tld = kind === 'demo' ? 'demo' : 'test';
  return {
    kind,
    port: hello.port,
    seeds: hello.homes.map((h) => `http://${h}:${hello.port}/`),
    hosts: [`*.${tld}`],
    resolve: [`*.${tld}:127.0.0.1`],
    stop: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A lookup that never leaves the machine: every name the mappings do not cover fails as DNS would. */
export const noDns: NonNullable<FetcherOptions['lookup']> = async (host) => {
  throw Object.assign(new Error(`no DNS in benches (${host})`), { code: 'ENOTFOUND' });
};

/** A harvest of `web` as the CLI would build it, with politeness at `delayMs` (default 0) between requests to a host. */
export function harvestOptions(
  web: ChildWeb, strategy: StrategyName, o: { seed?: number; concurrency: number; maxPages: number; delayMs?: number },
): HarvestOptions {
  return {
    strategy,
    concurrency: o.concurrency,
    seed: o.seed,
    reward: HARVEST_DEFAULTS.reward,
    maxDepth: HARVEST_DEFAULTS.maxDepth,
    maxPages: o.maxPages,
    hosts: web.hosts,
    leaseMs: HARVEST_DEFAULTS.leaseMs,
    fetcher: { resolve: web.resolve, lookup: noDns, connectionsPerOrigin: o.concurrency },
    politeness: { delayMs: o.delayMs ?? 0 },
    narrative: {},
  };
}

interface RunResult {
  started: number;
  fetched: number;
  withNodes: number;
  newNodes: number;
  /** Pages spent on hosts that yielded no node in the run. */
  barren: number;
  stop: string;
  ms: number;
  cpuUs: number;
  /** Every URL the walk reached an outcome for, in completion order. */
  urls: string[];
}

/** One harvest on a fresh SQLite file in a temp folder, seeded with the web's seed URLs. */
async function harvestOnce(
  web: ChildWeb, strategy: StrategyName, o: { seed?: number; concurrency: number; maxPages: number; seeds?: string[]; delayMs?: number },
): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-harvest-'));
  try {
    const file = join(dir, 'harvest.sqlite');
    const store = await openStore(`sqlite:${file}`);
    let report;
    let ms;
    let cpu;
    try {
      await store.addLinks((o.seeds ?? web.seeds).map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      report = await harvest(store, harvestOptions(web, strategy, o));
      ms = performance.now() - t0;
      cpu = process.cpuUsage(cpu0);
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const urls = (db.prepare("SELECT url FROM links WHERE status IN ('done', 'failed', 'excluded') ORDER BY completed_at, id").all() as { url: string }[]).map((r) => r.url);
      const barren = (db.prepare('SELECT COALESCE(SUM(pages), 0) AS n FROM domains WHERE nodes = 0').get() as { n: number }).n;
      const s = report.stats;
      return { started: s.pagesStarted, fetched: s.pagesFetched, withNodes: s.pagesWithNodes, newNodes: s.newNodes, barren, stop: report.stop, ms, cpuUs: cpu.user + cpu.system, urls };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `mean ± sd` over runs, or the one value when every run agrees. */
function spread(xs: number[], digits: number): string {
  const m = mean(xs).toFixed(digits);
  return xs.length > 1 && sd(xs) > 1e-9 ? `${m} ± ${sd(xs).toFixed(digits)}` : m;
}

async function yieldRows(web: ChildWeb, budget: number): Promise<string[]> {
  const rows: string[] = [];
  const plan: { strategy: StrategyName; seeds: (number | undefined)[] }[] = [
    { strategy: 'roulette', seeds: Array.from({ length: ROULETTE_SEEDS }, (_, i) => i + 1) },
    { strategy: 'bfs', seeds: [undefined] },
    { strategy: 'dfs', seeds: [undefined] },
  ];
  for (const { strategy, seeds } of plan) {
    const runs: RunResult[] = [];
    for (const seed of seeds) runs.push(await harvestOnce(web, strategy, { seed, concurrency: 1, maxPages: budget }));
    const col = (f: (r: RunResult) => number, digits: number) => spread(runs.map(f), digits);
    const stops = [...new Set(runs.map((r) => r.stop))].join(', ');
    rows.push(
      `| ${web.kind} | ${budget} | ${strategy} | ${seeds.length} | ${col((r) => r.started, 0)} | ${col((r) => r.fetched, 1)} | ${col((r) => r.newNodes, 1)} | ` +
        `${col((r) => r.newNodes / Math.max(1, r.fetched), 2)} | ${col((r) => (100 * r.withNodes) / Math.max(1, r.fetched), 1)} % | ${col((r) => r.barren, 1)} | ${stops} |`,
    );
  }
  return rows;
}

interface Tally {
  pages: number;
  ms: number;
  cpuUs: number;
}

/** Fetches a URL list with `concurrency` workers, optionally running the narrative action on each page. */
async function fetchList(fetcher: Fetcher, urls: string[], extract: boolean): Promise<Tally> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const o = await fetcher.fetch(url);
        if (extract && o.kind === 'ok') {
          narrativeAction({ finalUrl: o.finalUrl, status: o.status, headers: o.headers, text: o.text ?? '', truncated: o.truncated }, { metaWordIds: [], metaStems: [] }, { robotsToken: 'anwc' });
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { pages: urls.length, ms, cpuUs: cpu.user + cpu.system };
}

/** Interleaved rounds: a harvest on a fresh database, then the baselines on the URLs it walked. */
async function speedRows(web: ChildWeb, budget: number, seeds?: string[]): Promise<string[]> {
  const fetcher = new Fetcher({ resolve: web.resolve, lookup: noDns, connectionsPerOrigin: CONCURRENCY });
  const totals = { fetch: zero(), extract: zero(), harvest: zero() };
  try {
    // Round 0 warms the JIT, the connections and the server's file cache; it is not counted.
    for (let round = 0; round <= SPEED_ROUNDS; round++) {
      const h = await harvestOnce(web, 'roulette', { seed: 100 + round, concurrency: CONCURRENCY, maxPages: budget, seeds });
      const f = await fetchList(fetcher, h.urls, false);
      const e = await fetchList(fetcher, h.urls, true);
      if (round === 0) continue;
      add(totals.harvest, { pages: h.started, ms: h.ms, cpuUs: h.cpuUs });
      add(totals.fetch, f);
      add(totals.extract, e);
    }
  } finally {
    await fetcher.close();
  }
  const base = totals.fetch;
  const row = (name: string, t: Tally) =>
    `| ${name} | ${t.pages} | ${((t.pages / t.ms) * 1000).toFixed(0)} | ${(t.cpuUs / t.pages).toFixed(0)} | ${((t.cpuUs / 1000 / t.ms) * 100).toFixed(0)} % | ` +
    `${(base.pages / base.ms / (t.pages / t.ms)).toFixed(2)}x | ${(t.cpuUs / t.pages / (base.cpuUs / base.pages)).toFixed(2)}x |`;
  return [
    row('Fetcher alone, same URL list (baseline)', base),
    row('Fetcher + narrative action', totals.extract),
    row('harvest() roulette: walker + store + action + fetcher', totals.harvest),
  ];
}

const zero = (): Tally => ({ pages: 0, ms: 0, cpuUs: 0 });
function add(t: Tally, r: Tally): void {
  t.pages += r.pages;
  t.ms += r.ms;
  t.cpuUs += r.cpuUs;
}

const SPEED_HEADER = ['| client | pages | pages/s | CPU µs/page | CPU busy | time ratio | CPU ratio |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];

/**
 * Does the walker keep every host busy up to what politeness allows? With a delay between
 * requests to a host and tiny pages, the ceiling is hosts × 1000 / delay pages per second; a
 * walker that idles while a host is ready falls short of it.
 */
async function politenessRows(web: ChildWeb): Promise<string[]> {
  const rows: string[] = [];
  for (const { hosts, perHost, delayMs } of POLITE_RUNS) {
    const seeds = tinyUrls(web, hosts, perHost, `polite${delayMs}`);
    const opts = { seed: 1, concurrency: CONCURRENCY, maxPages: seeds.length, seeds, delayMs };
    const r = await harvestOnce(web, 'roulette', opts);
    const rate = (r.started / r.ms) * 1000;
    const ceiling = (hosts * 1000) / delayMs;
    rows.push(`| ${hosts} | ${perHost} | ${delayMs} | ${r.started} | ${rate.toFixed(1)} | ${ceiling.toFixed(1)} | ${(rate / ceiling).toFixed(2)} |`);
  }
  return rows;
}

/** `hosts` × `perHost` URLs on the tiny web, host-major: a frontier wide enough for every fetch slot. */
function tinyUrls(web: ChildWeb, hosts: number, perHost: number, prefix = 'h'): string[] {
  const out: string[] = [];
  for (let h = 0; h < hosts; h++) for (let p = 0; p < perHost; p++) out.push(`http://${prefix}${h}.tiny.test:${web.port}/p${p}.html`);
  return out;
}

export async function main(): Promise<string> {
  const corpus = await startChildWeb('corpus');
  const demo = await startChildWeb('demo');
  const tiny = await startChildWeb('tiny');
  try {
    const yields: string[] = [];
    for (const budget of BUDGETS) yields.push(...(await yieldRows(corpus, budget)));
    yields.push(...(await yieldRows(demo, DEMO_BUDGET)));
    const speed = await speedRows(corpus, SPEED_BUDGET);
    const tinyList = tinyUrls(tiny, TINY_HOSTS, TINY_PER_HOST);
    const tinySpeed = await speedRows(tiny, tinyList.length, tinyList);
    const polite = await politenessRows(tiny);
    return [
      `## Harvest rate: same seed URLs and page budget per web (corpus ${BUDGETS.join(' or ')} pages from the hub, demo ${DEMO_BUDGET} pages from its ${demo.seeds.length} home pages), 1 fetch slot, delay 0, fresh SQLite each run`,
      '',
      '| web | budget | strategy | runs | pages started | pages fetched | new nodes | nodes / fetched page | pages with nodes | pages on barren hosts | stop |',
      '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...yields,
      '',
      `Roulette: mean ± standard deviation over random seeds 1-${ROULETTE_SEEDS}; bfs and dfs draw nothing at random. "Barren" hosts yielded no node in the run.`,
      '',
      `## Harvest speed: corpus web on loopback, ${CONCURRENCY} in flight, delay 0, ${SPEED_ROUNDS} interleaved rounds of ${SPEED_BUDGET} pages (web server in a child process)`,
      '',
      ...SPEED_HEADER,
      ...speed,
      '',
      `## Walker overhead: tiny pages (one short paragraph, no links) on ${TINY_HOSTS} hosts × ${TINY_PER_HOST} seeded URLs, same settings`,
      '',
      ...SPEED_HEADER,
      ...tinySpeed,
      '',
      'Every round harvests on a fresh database, then the two baselines fetch the URLs that harvest walked with',
      `${CONCURRENCY} workers (robots.txt fetches are the harvest's own extra). CPU busy = this process's CPU time / wall time;`,
      'a walker that waits while work is ready shows as lower pages/s at the same CPU per page.',
      '',
      `## Walker under politeness: tiny pages, ${CONCURRENCY} slots, a delay between requests to a host; ceiling = hosts × 1000 / delay pages/s`,
      '',
      '| hosts | URLs per host | delay ms | pages | pages/s | ceiling | of ceiling |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...polite,
      '',
      'A host\'s first request (its robots.txt) waits for no delay, so a short run may pass the ceiling by a little.',
    ].join('\n');
  } finally {
    await corpus.stop();
    await demo.stop();
    await tiny.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
