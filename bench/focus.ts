import { pathToFileURL } from 'node:url';
import { gradedWeb, TOPIC, type GradedShape, type HostKind } from './graded-web.js';
import { interval, paired, perPage, walkOnce, type Tally, type Walk } from './graded-walk.js';
import { startChildWeb } from './harvest.js';
import { benchMysql } from '../test/support/db.js';
import { backends, cliWalkOnce, workerRows, type CliWalk } from './focus-workers.js';
import { mean } from './stats.js';
import { HARVEST_DEFAULTS } from '../src/harvest/defaults.js';
import { count } from './knobs.js';

/**
 * Does the walk find text on the topic? On a generated web (bench/graded-web.ts) of hosts rich in
 * prose about the topic, hosts rich in prose about something else, and poor hosts (shops, link
 * lists, navigation), each walk gets the same search results for the meta word and the same page
 * budget. Measured per page fetched: pages with a node, nodes, pages with a node on the topic, nodes
 * on the topic. Rows: bfs, the thesis's roulette, each relevance reward with and without the relevance
 * order, and an oracle that knows the hosts rich and on the topic (it is given their home pages and
 * walks only them): the ceiling. Each seed makes another web and seeds the draws; the table gives
 * the mean and half its 95 % confidence interval over seeds, the ratio to bfs per seed (paired),
 * and the ratios of the means to roulette and to the oracle.
 *
 *   npx tsc -p . && node dist/bench/run.js focus
 *
 * A second table runs the thesis's roulette and the best relevance walk as `anwc harvest` does, once
 * as one process with 2 fetch slots and once as `--workers 2` with one each, on SQLite and, when
 * ANWC_TEST_MYSQL names a server, on MariaDB/MySQL: the wheel shared in the database should steer
 * two workers as it steers one process (bench/focus-workers.ts).
 *
 *   ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ node dist/bench/run.js focus
 *
 * Knobs: BENCH_FOCUS_SEEDS (8), BENCH_FOCUS_BUDGET (200 pages), BENCH_FOCUS_PAGES (100 per host),
 * BENCH_FOCUS_DEPTH (the harvest's default, 4), BENCH_FOCUS_WORKER_SEEDS (5; 0 for no second table).
 */

const SEEDS = count('BENCH_FOCUS_SEEDS', 8);
const BUDGET = count('BENCH_FOCUS_BUDGET', 200);
const PAGES_PER_HOST = count('BENCH_FOCUS_PAGES', 100);
/**
 * The harvest's default: depth counts afresh from a page that paid the wheel, so the limit ends a
 * walk that strays from the text, not the reading of a good host found a few hops out.
 */
const DEPTH = count('BENCH_FOCUS_DEPTH', HARVEST_DEFAULTS.maxDepth);

const WORKER_SEEDS = count('BENCH_FOCUS_WORKER_SEEDS', 5, 0);

const RICH_ON = 'rich, on topic';
export const FOCUS_KINDS: HostKind[] = [
  { name: RICH_ON, count: 3, narrative: 0.9, onTopic: 0.8 },
  { name: 'rich, off topic', count: 5, narrative: 0.9, onTopic: 0.05 },
  { name: 'poor', count: 16, narrative: 0.05, onTopic: 0.3 },
];
/** The search results: a search engine's few good hits among noise, as many of each kind. */
const RESULTS: Record<string, number> = { [RICH_ON]: 1, 'rich, off topic': 2, poor: 3 };

const WALKS: (Walk & { oracle?: boolean })[] = [
  { name: 'bfs', strategy: 'bfs' },
  { name: 'roulette (thesis: +1 per page with a node)', strategy: 'roulette' },
  { name: 'roulette, reward: the share of its nodes on the topic (0-1; --reward relevance before)', strategy: 'roulette', over: { reward: { topic: 'share' } } },
  { name: 'roulette, reward: share, --order relevance', strategy: 'roulette', over: { reward: { topic: 'share' }, narrative: { order: 'relevance' } } },
  { name: 'roulette, reward: its nodes on the topic', strategy: 'roulette', over: { reward: { topic: 'nodes' } } },
  { name: 'roulette, reward: nodes, --order relevance', strategy: 'roulette', over: { reward: { topic: 'nodes' }, narrative: { order: 'relevance' } } },
  { name: 'roulette --reward relevance (its nodes on the topic, −1 for a page with none)', strategy: 'roulette', over: { reward: 'relevance' } },
  { name: 'roulette --reward relevance --order relevance', strategy: 'roulette', over: { reward: 'relevance', narrative: { order: 'relevance' } } },
  { name: 'roulette, reward: the sum of its nodes\' relevance', strategy: 'roulette', over: { reward: { topic: 'weight' } } },
  { name: 'roulette, reward: sum of relevance, --order relevance', strategy: 'roulette', over: { reward: { topic: 'weight' }, narrative: { order: 'relevance' } } },
  { name: 'oracle: roulette on the rich on-topic hosts only, from their home pages', strategy: 'roulette', oracle: true },
];

const CLI_WALKS: CliWalk[] = [
  { name: 'roulette (thesis)', args: [] },
  { name: 'roulette --reward relevance --order relevance', args: ['--reward', 'relevance', '--order', 'relevance'] },
];

export async function main(): Promise<string> {
  const tallies = WALKS.map(() => [] as Tally[]);
  const richBySeed: string[][] = [];
  const stores = backends();
  type WorkerTally = Awaited<ReturnType<typeof cliWalkOnce>>;
  const byWorkers = stores.map(() => CLI_WALKS.map(() => ({ one: [] as WorkerTally[], two: [] as WorkerTally[] })));
  const shapeOf = (seed: number): GradedShape => ({ seed, pagesPerHost: PAGES_PER_HOST, kinds: FOCUS_KINDS, seeds: 0 });
  for (let seed = 1; seed <= SEEDS; seed++) {
    const web = await startChildWeb('graded', { ANWC_GRADED_SHAPE: JSON.stringify(shapeOf(seed)) });
    try {
      const generated = gradedWeb({ ...shapeOf(seed), port: web.port });
      const home = (host: string) => `http://${host}:${web.port}/`;
      const ofKind = (kind: string) => generated.hosts.filter((h) => h.kind === kind).map((h) => h.host);
      // The first hosts of each kind: the generator shuffles kinds over host numbers.
      const results = Object.entries(RESULTS).flatMap(([kind, n]) => ofKind(kind).slice(0, n).map(home));
      const rich = ofKind(RICH_ON);
      richBySeed.push(rich);
      for (const [i, walk] of WALKS.entries()) {
        const setup = walk.oracle
          ? { budget: BUDGET, depth: DEPTH, seeds: rich.map(home), hosts: rich }
          : { budget: BUDGET, depth: DEPTH, seeds: results };
        tallies[i]!.push(await walkOnce(web, walk, seed, setup));
      }
      if (seed <= WORKER_SEEDS) {
        for (const [b, backend] of stores.entries()) {
          for (const [w, walk] of CLI_WALKS.entries()) {
            const setup = { budget: BUDGET, depth: DEPTH, seeds: results, slots: 2 };
            byWorkers[b]![w]!.one.push(await cliWalkOnce(web, backend, walk, seed, { ...setup, workers: 1 }));
            byWorkers[b]![w]!.two.push(await cliWalkOnce(web, backend, walk, seed, { ...setup, workers: 2 }));
          }
        }
      }
    } finally {
      await web.stop();
    }
  }
  const bfs = tallies[0]!;
  const roulette = tallies[1]!;
  const oracle = tallies[WALKS.length - 1]!;
  const { nodes, allNodes, topical, topicNodes } = perPage;
  // Nodes on the topic are few on some webs for some walks: a ratio per seed would swing with them.
  const over = (ts: Tally[], base: Tally[]) => (mean(ts.map(topicNodes)) / Math.max(1e-9, mean(base.map(topicNodes)))).toFixed(2);
  const rows = WALKS.map((w, i) => {
    const ts = tallies[i]!;
    const onRich = ts.map((t, s) => richBySeed[s]!.reduce((n, h) => n + (t.byHost.get(h) ?? 0), 0) / Math.max(1, t.fetched));
    return `| ${w.name} | ${interval(ts.map((t) => t.fetched), 0)} | ${interval(onRich)} | ${interval(ts.map(nodes))} | ${interval(paired(ts, bfs, nodes))}× | ${interval(ts.map(allNodes))} | ${interval(paired(ts, bfs, allNodes))}× | ${interval(ts.map(topical))} | ${interval(ts.map(topicNodes))} | ${over(ts, roulette)}× | ${over(ts, oracle)} |`;
  });
  const hosts = FOCUS_KINDS.reduce((n, k) => n + k.count, 0);
  return [
    `## Focus on a topic: ${hosts} hosts × ${PAGES_PER_HOST} pages, ${Object.values(RESULTS).reduce((a, b) => a + b, 0)} search results, budget ${BUDGET} pages, 1 fetch slot, ${SEEDS} seeds`,
    '',
    '| walk | pages fetched | share of them on the rich on-topic hosts | pages with a node / page | over bfs | nodes / page | over bfs | pages with a node on the topic / page | nodes on the topic / page | over roulette | of the oracle |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Hosts: ${FOCUS_KINDS.map((k) => `${k.count} ${k.name} (${Math.round(k.narrative * 100)} % of pages prose, ${Math.round(k.onTopic * 100)} % of that about the ${TOPIC})`).join('; ')}.`,
    `Search results for "${TOPIC}": the home pages of ${Object.entries(RESULTS).map(([k, n]) => `${n} ${k}`).join(', ')} host(s); the oracle gets the home pages of the ${FOCUS_KINDS[0]!.count} rich on-topic hosts instead and walks only them.`,
    `Mean ± half the 95 % confidence interval (Student's t) over the web seeds; "over bfs" is the ratio to bfs on the same web, per seed; "over roulette" and "of the oracle" divide the mean nodes on the topic per page by that walk's. Depth limit ${DEPTH} (links from a search result or from the last page that paid the wheel).`,
    'On the topic: a node linked to the meta word by evidence (text/profile.ts).',
    ...(WORKER_SEEDS > 0 ? workerTable() : []),
  ].join('\n');

  function workerTable(): string[] {
    return [
      '',
      `## The wheel with several workers: \`anwc harvest\`, one process with 2 fetch slots beside \`--workers 2\` with 1 each; the same webs, search results, budget ${BUDGET} (the whole run's) and depth ${DEPTH}; ${Math.min(WORKER_SEEDS, SEEDS)} seeds`,
      '',
      '| store, walk, processes | pages fetched | share on the rich on-topic hosts | share on hosts that gave no node | pages with a node / page | nodes on the topic / page | 2 workers over 1 process: pages with a node · nodes on the topic |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...stores.flatMap((backend, b) => CLI_WALKS.flatMap((walk, w) =>
        workerRows(`${backend.name}, ${walk.name}`, byWorkers[b]![w]!.one, byWorkers[b]![w]!.two, richBySeed))),
      '',
      benchMysqlLine(),
    ];
  }
}

const benchMysqlLine = () => benchMysql()
  ? 'Each worker draws with its own seed (the run\'s --seed plus its number) from its copy of the wheel, refreshed from the database.'
  : 'MariaDB/MySQL: not measured (set ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ to add its rows).';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
