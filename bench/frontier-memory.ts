import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import seedrandom from 'seedrandom';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/open.js';
import type { LinkInput } from '../src/store/store.js';
import { Frontier } from '../src/walk/frontier.js';
import { createStrategy } from '../src/walk/strategies/strategy.js';
import { harvestOptions, startChildWeb, type ChildWeb } from './harvest.js';
import { count } from './knobs.js';

/**
 * Peak memory with a large frontier (issue 6, item 8): a SQLite store holding 100,000 pending
 * links over 5,000 domains, beside a 1,000-link frontier over 50 domains and beside the process's
 * own RSS before it opened any store. Each phase runs in a fresh child process, so that its peak
 * RSS (getrusage maxrss) is its own:
 *
 *   fill      addLinks in batches of 1,000 into a fresh file
 *   frontier  the walker's Frontier over the store: load, then draw → lease → complete → finish
 *             for many links (the walker's pick and feed-back steps without the web)
 *   harvest   a short harvest() (roulette, 4 slots, delay 0) against a local server that answers
 *             every URL with a tiny page and no links, on a copy of the filled file
 *
 * The links point at `dN.mem.test`, reached through `*.test:127.0.0.1`; nothing resolves a name.
 */

const SCENARIOS = [
  { links: 1_000, domains: 50 },
  { links: count('BENCH_FRONTIER_LINKS', 100_000), domains: count('BENCH_FRONTIER_DOMAINS', 5_000) },
];
const PICKS = count('BENCH_FRONTIER_PICKS', 10_000);
const HARVEST_PAGES = count('BENCH_FRONTIER_HARVEST_PAGES', 1_000);
const BATCH = 1_000;

/** What a child reports: memory in bytes, time in ms. */
interface PhaseReport {
  startRss: number;
  peakRss: number;
  peakHeap: number;
  ms: number;
  /** Links added, picks made or pages walked. */
  work: number;
  /** CPU time of the phase (user + system), µs. */
  cpuUs: number;
}

const MB = 2 ** 20;

/** Samples heap use; peak RSS comes from getrusage, which sees between the samples too. */
class Peak {
  heap = process.memoryUsage().heapUsed;
  private readonly cpu0 = process.cpuUsage();
  sample(): void {
    this.heap = Math.max(this.heap, process.memoryUsage().heapUsed);
  }
  report(startRss: number, ms: number, work: number): PhaseReport {
    this.sample();
    const cpu = process.cpuUsage(this.cpu0);
    return { startRss, peakRss: process.resourceUsage().maxRSS * 1024, peakHeap: this.heap, ms, work, cpuUs: cpu.user + cpu.system };
  }
}

function linksOf(port: number, links: number, domains: number): (from: number, to: number) => LinkInput[] {
  return (from, to) => {
    const out: LinkInput[] = [];
    for (let k = from; k < to; k++) {
      const host = `d${k % domains}.mem.test`;
      out.push({ url: `http://${host}:${port}/p${Math.floor(k / domains)}.html`, host, depth: 1 });
    }
    return out;
  };
}

async function childFill(file: string, port: number, links: number, domains: number): Promise<PhaseReport> {
  const startRss = process.memoryUsage().rss;
  const peak = new Peak();
  const t0 = performance.now();
  const store = await openStore(`sqlite:${file}`);
  const make = linksOf(port, links, domains);
  let added = 0;
  for (let k = 0; k < links; k += BATCH) {
    added += await store.addLinks(make(k, Math.min(links, k + BATCH)));
    peak.sample();
  }
  await store.close();
  return peak.report(startRss, performance.now() - t0, added);
}

async function childFrontier(file: string, picks: number): Promise<PhaseReport> {
  const startRss = process.memoryUsage().rss;
  const peak = new Peak();
  const t0 = performance.now();
  const store = await openStore(`sqlite:${file}`);
  const strategy = createStrategy('roulette');
  const frontier = new Frontier(store, strategy, { readiness: (_host, now) => now, now: Date.now });
  const random = seedrandom('bench-frontier');
  await frontier.load();
  peak.sample();
  let done = 0;
  while (done < picks) {
    const id = frontier.draw(random);
    if (id === undefined) break;
    const link = await store.leaseNextLink(id, 'bench', 60_000, Date.now(), strategy.linkOrder);
    if (!link) {
      frontier.exhausted(id, null);
      continue;
    }
    frontier.started(id);
    // About a third of the pages "yield", so the wheel's scores move as in a crawl.
    const reward = random() < 0.3 ? 1 : 0;
    await store.completePage({ linkId: link.id, owner: 'bench', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: reward });
    if (reward) strategy.reward(id, reward);
    frontier.finished(id);
    if (++done % 250 === 0) peak.sample();
  }
  await store.close();
  return peak.report(startRss, performance.now() - t0, done);
}

async function childHarvest(file: string, port: number, pages: number): Promise<PhaseReport> {
  const startRss = process.memoryUsage().rss;
  const peak = new Peak();
  const timer = setInterval(() => peak.sample(), 50);
  const t0 = performance.now();
  const store = await openStore(`sqlite:${file}`);
  const web: ChildWeb = { kind: 'tiny', port, seeds: [], hosts: ['*.mem.test'], resolve: ['*.test:127.0.0.1'], stop: async () => {} };
  try {
    const report = await harvest(store, harvestOptions(web, 'roulette', { seed: 1, concurrency: 4, maxPages: pages }));
    return peak.report(startRss, performance.now() - t0, report.stats.pagesDone);
  } finally {
    clearInterval(timer);
    await store.close();
  }
}

/** Runs one phase in a fresh Node process and returns what it reported. */
async function inChild(args: (string | number)[]): Promise<PhaseReport> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [self, '--child', ...args.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  if (code !== 0) throw new Error(`bench child ${args[0]} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as PhaseReport;
}

export async function main(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-frontier-'));
  const tiny = await startChildWeb('tiny');
  try {
    const results: { links: number; domains: number; phases: Record<'fill' | 'frontier' | 'harvest', PhaseReport> }[] = [];
    for (const s of SCENARIOS) {
      const filled = join(dir, `filled-${s.links}.sqlite`);
      const fill = await inChild(['fill', filled, tiny.port, s.links, s.domains]);
      const copy = join(dir, `harvest-${s.links}.sqlite`);
      copyFileSync(filled, copy);
      const frontier = await inChild(['frontier', filled, Math.min(PICKS, s.links)]);
      const harvested = await inChild(['harvest', copy, tiny.port, Math.min(HARVEST_PAGES, s.links)]);
      results.push({ ...s, phases: { fill, frontier, harvest: harvested } });
    }
    const small = results[0]!;
    const rows: string[] = [];
    for (const r of results) {
      for (const phase of ['fill', 'frontier', 'harvest'] as const) {
        const p = r.phases[phase];
        const base = small.phases[phase];
        const what = phase === 'fill' ? `${p.work.toLocaleString('en')} links added` : phase === 'frontier' ? `load + ${p.work.toLocaleString('en')} picks` : `${p.work.toLocaleString('en')} pages`;
        rows.push(
          `| ${r.links.toLocaleString('en')} / ${r.domains.toLocaleString('en')} | ${phase}: ${what} | ${(p.startRss / MB).toFixed(0)} | ${(p.peakRss / MB).toFixed(0)} | ` +
            `${(p.peakHeap / MB).toFixed(1)} | ${(p.peakRss / p.startRss).toFixed(2)}x | ${(p.peakRss / base.peakRss).toFixed(2)}x | ${(p.peakHeap / base.peakHeap).toFixed(2)}x | ` +
            `${((p.work / p.ms) * 1000).toFixed(0)} | ${((p.cpuUs / 1000 / p.ms) * 100).toFixed(0)} % |`,
        );
      }
    }
    return [
      `## Frontier memory: pending links in a SQLite store, each phase in a fresh process (peak RSS from getrusage)`,
      '',
      '| links / domains | phase | RSS at start MB | peak RSS MB | peak heap MB | peak RSS / start | peak RSS vs 1,000 links | peak heap vs 1,000 links | per second | CPU busy |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      '"RSS at start" is the child before it opened any store (Node and the modules loaded): the baseline of',
      '"peak RSS / start". A pick is draw → leaseNextLink → completePage → finished, as the walker does it without',
      'the web; the harvest is harvest() with 4 slots and delay 0 against a server answering every URL with a tiny page,',
      'so each new domain also costs a robots.txt fetch.',
    ].join('\n');
  } finally {
    await tiny.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(argv: string[]): Promise<PhaseReport> {
  const [kind, file, ...rest] = argv;
  const n = rest.map(Number);
  switch (kind) {
    case 'fill':
      return childFill(file!, n[0]!, n[1]!, n[2]!);
    case 'frontier':
      return childFrontier(file!, n[0]!);
    case 'harvest':
      return childHarvest(file!, n[0]!, n[1]!);
    default:
      throw new Error(`unknown bench child ${kind}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === '--child') console.log(JSON.stringify(await child(process.argv.slice(3))));
  else console.log(await main());
}
