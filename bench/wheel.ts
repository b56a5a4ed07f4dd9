import { pathToFileURL } from 'node:url';
import { DEFAULT_KINDS, gradedWeb, TOPIC, type GradedShape, type HostKind } from './graded-web.js';
import { interval, paired, perPage, walkOnce, type Tally, type Walk } from './graded-walk.js';
import { startChildWeb } from './harvest.js';
import { count } from './knobs.js';

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
 * A second table asks how much of that gain is the web's: on webs of 30 hosts where a third, a
 * fifth or a tenth are rich in prose and the rest poor, bfs, roulette and an oracle that walks only
 * the rich hosts from their home pages (the most any walk could find). How far roulette gets above
 * bfs is bounded by the oracle's ratio, which the share of rich hosts sets: a figure over bfs says
 * as much about the web as about the wheel.
 *
 * Knobs: BENCH_WHEEL_SEEDS (10), BENCH_WHEEL_BUDGET (200 pages), BENCH_WHEEL_PAGES (100 per host),
 * BENCH_WHEEL_DEPTH (the harvest's default, 4), BENCH_WHEEL_SWEEP_SEEDS (6; 0 for no sweep).
 */

const SEEDS = count('BENCH_WHEEL_SEEDS', 10);
const BUDGET = count('BENCH_WHEEL_BUDGET', 200);
const PAGES_PER_HOST = count('BENCH_WHEEL_PAGES', 100);
const DEPTH = process.env.BENCH_WHEEL_DEPTH ? count('BENCH_WHEEL_DEPTH', 1) : undefined;
const SEARCH_RESULTS = 6;
const SWEEP_SEEDS = count('BENCH_WHEEL_SWEEP_SEEDS', 6, 0);
const SWEEP_HOSTS = 30;
/** Rich hosts among SWEEP_HOSTS: a third, a fifth, a tenth. */
const SWEEP_RICH = [10, 6, 3];

const WALKS: Walk[] = [
  { name: 'bfs (baseline)', strategy: 'bfs' },
  { name: 'dfs', strategy: 'dfs' },
  { name: 'roulette (thesis: +1 per page with a node)', strategy: 'roulette' },
  { name: 'roulette --reward relevance', strategy: 'roulette', over: { reward: 'relevance' } },
  { name: 'roulette --reward relevance --order relevance', strategy: 'roulette', over: { reward: 'relevance', narrative: { order: 'relevance' } } },
];

const sweepKinds = (rich: number): HostKind[] => [
  { name: 'rich', count: rich, narrative: 0.9, onTopic: 0.5 },
  { name: 'poor', count: SWEEP_HOSTS - rich, narrative: 0.05, onTopic: 0.3 },
];

/** bfs, roulette and the oracle on webs ever poorer in rich hosts. */
async function richnessSweep(): Promise<string[]> {
  const walks: (Walk & { oracle?: boolean })[] = [
    { name: 'bfs', strategy: 'bfs' },
    { name: 'roulette', strategy: 'roulette' },
    { name: 'oracle', strategy: 'roulette', oracle: true },
  ];
  const rows: string[] = [];
  for (const rich of SWEEP_RICH) {
    const tallies = walks.map(() => [] as Tally[]);
    const shapeOf = (seed: number): GradedShape => ({ seed, pagesPerHost: PAGES_PER_HOST, kinds: sweepKinds(rich), seeds: SEARCH_RESULTS });
    for (let seed = 1; seed <= SWEEP_SEEDS; seed++) {
      const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shapeOf(seed)) });
      try {
        const richHosts = gradedWeb({ ...shapeOf(seed), port: web.port }).hosts.filter((h) => h.kind === 'rich').map((h) => h.host);
        for (const [i, walk] of walks.entries()) {
          const setup = walk.oracle
            ? { budget: BUDGET, depth: DEPTH, seeds: richHosts.map((h) => `http://${h}:${web.port}/`), hosts: richHosts }
            : { budget: BUDGET, depth: DEPTH };
          tallies[i]!.push(await walkOnce(web, walk, seed, setup));
        }
      } finally {
        await web.stop();
      }
    }
    const [bfs, roulette, oracle] = tallies as [Tally[], Tally[], Tally[]];
    const rate = perPage.nodes;
    rows.push(`| ${rich} of ${SWEEP_HOSTS} | ${interval(bfs.map(rate))} | ${interval(roulette.map(rate))} | ${interval(paired(roulette, bfs, rate))}× | ${interval(paired(oracle, bfs, rate))}× | ${interval(paired(roulette, oracle, rate))} |`);
  }
  return [
    '',
    `## The same walks on webs ever poorer in rich hosts: ${SWEEP_HOSTS} hosts × ${PAGES_PER_HOST} pages, ${SEARCH_RESULTS} search results (any hosts), budget ${BUDGET}, ${SWEEP_SEEDS} seeds`,
    '',
    '| rich hosts | bfs: pages with a node / page | roulette | roulette over bfs | oracle over bfs (the bound) | roulette of the oracle |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Rich: ${Math.round(sweepKinds(1)[0]!.narrative * 100)} % of pages prose; poor: ${Math.round(sweepKinds(1)[1]!.narrative * 100)} %. The oracle walks only the rich hosts, from their home pages. Ratios per seed (paired), mean ± half the 95 % interval.`,
  ];
}

export async function main(): Promise<string> {
  const tallies = WALKS.map(() => [] as Tally[]);
  const shapeOf = (seed: number): GradedShape => ({ seed, pagesPerHost: PAGES_PER_HOST, kinds: DEFAULT_KINDS, seeds: SEARCH_RESULTS });
  for (let seed = 1; seed <= SEEDS; seed++) {
    const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shapeOf(seed)) });
    try {
      for (const [i, walk] of WALKS.entries()) tallies[i]!.push(await walkOnce(web, walk, seed, { budget: BUDGET, depth: DEPTH }));
    } finally {
      await web.stop();
    }
  }
  const { nodes: rate, topical } = perPage;
  const bfs = tallies[0]!;
  const rows = WALKS.map((w, i) => {
    const ts = tallies[i]!;
    const over = (f: (t: Tally) => number) => paired(ts, bfs, f);
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
    ...(SWEEP_SEEDS > 0 ? await richnessSweep() : []),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
