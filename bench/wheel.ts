import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { harvest, type HarvestOptions } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/open.js';
import { stem } from '../src/text/stem.js';
import type { StrategyName } from '../src/walk/strategies/strategy.js';
import { DEFAULT_KINDS, TOPIC, type GradedShape } from './graded-web.js';
import { harvestOptions, startChildWeb, type ChildWeb } from './harvest.js';
import { ci95, mean } from './stats.js';

/**
 * Does the wheel pay? On a generated web whose hosts differ in how much narrative they hold
 * (bench/graded-web.ts), each walk gets the same search results (a few home pages, tied to a query
 * for the meta word "lighthouse") and the same page budget, far below the web's size, and spends
 * it as its strategy decides. Measured: the share of fetched pages that yielded a node (the
 * thesis's harvest rate) and the share that yielded a node about the topic. Each web seed makes a
 * new web (other hosts are rich, other links) and seeds the walk's random draws; the table gives
 * the mean and its 95 % confidence interval over seeds, and each walk's rate over bfs's on the same
 * web (paired), with its interval.
 *
 *   npx tsc -p . && node dist/bench/run.js wheel
 *
 * Knobs: BENCH_WHEEL_SEEDS (10), BENCH_WHEEL_BUDGET (200 pages), BENCH_WHEEL_PAGES (100 per host),
 * BENCH_WHEEL_DEPTH (the harvest's default, 4).
 */

const SEEDS = Number(process.env.BENCH_WHEEL_SEEDS ?? 10);
const BUDGET = Number(process.env.BENCH_WHEEL_BUDGET ?? 200);
const PAGES_PER_HOST = Number(process.env.BENCH_WHEEL_PAGES ?? 100);
const DEPTH = process.env.BENCH_WHEEL_DEPTH === undefined ? undefined : Number(process.env.BENCH_WHEEL_DEPTH);
const SEARCH_RESULTS = 6;

interface Walk {
  name: string;
  strategy: StrategyName;
  over?: Partial<HarvestOptions>;
}

const WALKS: Walk[] = [
  { name: 'bfs (baseline)', strategy: 'bfs' },
  { name: 'dfs', strategy: 'dfs' },
  { name: 'roulette (thesis: +1 per page with a node)', strategy: 'roulette' },
  { name: 'roulette --reward relevance', strategy: 'roulette', over: { reward: 'relevance' } },
  { name: 'roulette --reward relevance --order relevance', strategy: 'roulette', over: { reward: 'relevance', narrative: { order: 'relevance' } } },
];

interface Tally {
  fetched: number;
  withNodes: number;
  onTopic: number;
}

async function walkOnce(web: ChildWeb, walk: Walk, seed: number): Promise<Tally> {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-wheel-'));
  try {
    const file = join(dir, 'wheel.sqlite');
    const store = await openStore(`sqlite:${file}`);
    let report;
    try {
      const [word] = await store.ensureMetaWords([{ word: TOPIC, stem: stem(TOPIC) }]);
      await store.recordSeeds(
        { provider: 'file', terms: TOPIC, results: web.seeds, metaWordIds: [word!.id] },
        web.seeds.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })),
      );
      const base = harvestOptions(web, walk.strategy, { seed, concurrency: 1, maxPages: BUDGET });
      report = await harvest(store, { ...base, ...(DEPTH === undefined ? {} : { maxDepth: DEPTH }), ...walk.over });
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const onTopic = db.prepare("SELECT COUNT(*) AS n FROM links WHERE outcome_kind = 'harvested' AND json_extract(outcome_detail, '$.onTopic') > 0").get() as { n: number };
      return { fetched: report.stats.pagesFetched, withNodes: report.stats.pagesWithNodes, onTopic: onTopic.n };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const interval = (xs: number[], digits = 2) => `${mean(xs).toFixed(digits)} ± ${ci95(xs).toFixed(digits)}`;

export async function main(): Promise<string> {
  const tallies = WALKS.map(() => [] as Tally[]);
  const shapeOf = (seed: number): GradedShape => ({ seed, pagesPerHost: PAGES_PER_HOST, kinds: DEFAULT_KINDS, seeds: SEARCH_RESULTS });
  for (let seed = 1; seed <= SEEDS; seed++) {
    const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shapeOf(seed)) });
    try {
      for (const [i, walk] of WALKS.entries()) tallies[i]!.push(await walkOnce(web, walk, seed));
    } finally {
      await web.stop();
    }
  }
  const rate = (t: Tally) => t.withNodes / Math.max(1, t.fetched);
  const topical = (t: Tally) => t.onTopic / Math.max(1, t.fetched);
  const bfs = tallies[0]!;
  const rows = WALKS.map((w, i) => {
    const ts = tallies[i]!;
    const over = (f: (t: Tally) => number) => ts.map((t, s) => f(t) / Math.max(1e-9, f(bfs[s]!)));
    return `| ${w.name} | ${interval(ts.map((t) => t.fetched), 1)} | ${interval(ts.map(rate))} | ${interval(over(rate))}× | ${interval(ts.map(topical))} | ${interval(over(topical))}× |`;
  });
  const hosts = DEFAULT_KINDS.reduce((n, k) => n + k.count, 0);
  return [
    `## Harvest rate on a graded web: ${hosts} hosts × ${PAGES_PER_HOST} pages, ${SEARCH_RESULTS} search results, budget ${BUDGET} pages, 1 fetch slot, ${SEEDS} seeds`,
    '',
    '| walk | pages fetched | pages with a node / page | over bfs | pages with a node on the topic / page | over bfs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Hosts: ${DEFAULT_KINDS.map((k) => `${k.count} ${k.name} (${Math.round(k.narrative * 100)} % of pages prose, ${Math.round(k.onTopic * 100)} % of that about the ${TOPIC})`).join('; ')}.`,
    'Mean ± half the 95 % confidence interval (Student\'s t) over the web seeds; "over bfs" is the ratio to bfs on the same web, per seed.',
    'On the topic: the page yielded a node linked to the meta word by evidence (its stem in the node, or in the page\'s title or headings).',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
