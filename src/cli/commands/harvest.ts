import type { CommandModule } from 'yargs';
import { availableParallelism } from 'node:os';
import { ABOUT } from './about.js';
import { UserError } from '../../errors.js';
import type { HarvestOptions } from '../../harvest/harvest.js';
import { openStore, parseDbUrl } from '../../store/open.js';
import type { StrategyName } from '../../walk/strategies/strategy.js';
import type { DepthFrom } from '../../harvest/defaults.js';
import { EXIT } from '../exit.js';
import { parseReward, resolved, withOptions, type OptionName } from '../options.js';
import type { KeepNodes, LinkOrderBy } from '../../walk/actions/narrative.js';
import type { ExtractorName } from '../../extract/index.js';
import { progressView, type ProgressMode } from '../progress.js';
import { runSummaryLines } from '../report/summary.js';
import { handler } from '../run.js';
import { onStopSignals } from '../signals.js';
import { keepHeapUnder } from '../heap-budget.js';
import { listFlag } from '../list-flag.js';
import { actionOnThread, runWorkers, storeOnThread, WORKER_ENV, WORKERS_ENV, workerArgs, workersExit, workersSummary } from '../workers.js';
import { fetcherOptionsFrom, FETCH_OPTION_NAMES, politenessOptionsFrom, POLITENESS_OPTION_NAMES } from '../web-options.js';

const HARVEST_OPTIONS = [
  'db', 'strategy', 'concurrency', 'seed', 'reward', 'order', 'keep', 'max-depth', 'depth-from', 'max-pages', 'max-pages-per-domain', 'max-links-per-page', 'max-time',
  'hosts', 'same-host', 'lease', 'max-retries', 'retry-failed', 'kind', 'extractor', 'blocks', 'workers', 'heap-budget', 'progress', 'json', ...FETCH_OPTION_NAMES, ...POLITENESS_OPTION_NAMES,
] as const satisfies readonly OptionName[];


/** The run's options from the flags, with every default applied here (practice 8). */
export function harvestOptionsFrom(argv: Record<string, unknown>): HarvestOptions {
  const v = (name: OptionName) => resolved(argv, name).value;
  const maxTime = v('max-time') as number | undefined;
  return {
    strategy: v('strategy') as StrategyName,
    concurrency: v('concurrency') as number,
    seed: v('seed') as number | undefined,
    reward: parseReward(v('reward'))!,
    maxDepth: v('max-depth') as number,
    depthFrom: v('depth-from') as DepthFrom,
    maxPages: v('max-pages') as number | undefined,
    maxPagesPerDomain: v('max-pages-per-domain') as number | undefined,
    maxLinksPerPage: v('max-links-per-page') as number,
    maxTimeMs: maxTime === undefined ? undefined : maxTime * 1000,
    hosts: listFlag(v('hosts')),
    sameHost: Boolean(v('same-host')),
    leaseMs: (v('lease') as number) * 1000,
    maxRetries: v('max-retries') as number,
    fetcher: fetcherOptionsFrom(argv),
    politeness: politenessOptionsFrom(argv),
    narrative: {
      blocks: listFlag(v('blocks')), extractor: v('extractor') as ExtractorName, order: v('order') as LinkOrderBy | undefined, keep: v('keep') as KeepNodes,
    },
  };
}

/** What judges a run by what it read: a run's counters and why it stopped, or the sum of its workers'. */
export interface ReadTally {
  pagesFetched?: number;
  pagesDone?: number;
  retries?: number;
  stop: string;
}

/**
 * A harvest read none of what it was asked to (never a false green): it read no page, and it took
 * links (each refused by the address policy or the scope, failed, or put back for a server that
 * said "not now") or ended with links it could not take (time spent waiting for them). A run
 * that found every link done or held by the processes beside it had nothing left to do.
 */
export function readNothing(runs: ReadTally[]): boolean {
  const sum = (f: (r: ReadTally) => number | undefined) => runs.reduce((n, r) => n + (f(r) ?? 0), 0);
  const took = sum((r) => r.pagesDone) + sum((r) => r.retries) > 0;
  return sum((r) => r.pagesFetched) === 0 && (took || runs.some((r) => r.stop !== 'frontier-empty'));
}

/** The line of a run that read nothing; the summary above gives each reason. */
function noPageRead(): number {
  process.stderr.write('anwc: no page was read: every link this run took was refused, failed or put back (or none came due before it stopped; the reasons are above); '
    + 'a refused address needs --resolve HOST:ADDRESS or --allow-private, a server that said "not now" a rerun later\n');
  return EXIT.PROBLEMS;
}

export const harvestCommand: CommandModule = {
  ...ABOUT.harvest,
  builder: (y) =>
    withOptions(y, ...HARVEST_OPTIONS)
      .example('anwc import story.ane && anwc seed && anwc harvest', 'import, seed from Wikipedia, then harvest')
      .example('anwc harvest --max-pages 200 --hosts "*.wikipedia.org"', 'a budget, and stay on Wikipedia')
      .example("anwc harvest --resolve '*.test:127.0.0.1' --hosts '*.test' --delay 0", 'a local test web')
      .example('anwc harvest --reward relevance --order relevance', 'favour the domains, and within one the links, that speak of the meta words')
      .example('anwc harvest --keep drop', 'store only the paragraphs relevant to some meta word')
      .example('anwc harvest --workers 4', 'four harvest processes on this machine, one crawl (several machines: run anwc harvest on each with the same --db mysql://…)')
      .example('anwc harvest --retry-failed --kind timeout,5xx', 'try again the links that timed out or met a server error')
      .epilogue(
        'Ctrl-C (or SIGTERM) once finishes the pages in flight and saves; twice stops at once (the next run here frees the links left leased).\n' +
          'Exit codes: 0 the run ended (frontier walked to its end or a budget reached), 1 it read no page (every link it took refused, failed or put back, or none due before it stopped: the summary says why), 2 bad input or a frontier never seeded, 4 the database went away (rerun to resume), 5 a disk full or the database damaged (free space, rerun to resume), 130 interrupted (Ctrl-C or SIGTERM).',
      ),
  handler: handler(async (argv: Record<string, unknown>) => {
    const v = (name: OptionName) => resolved(argv, name).value;
    const opts = harvestOptionsFrom(argv);
    const db = String(resolved(argv, 'db').value);
    // This process's workers, or those it is one of: the parent of several only watches them.
    const workersHere = Number(process.env[WORKERS_ENV] ?? v('workers'));
    const cores = availableParallelism();
    const store = await openStore(db, { mustExist: true, thread: storeOnThread(parseDbUrl(db).kind, workersHere, cores) });
    const signals = onStopSignals();
    try {
      if (argv['retry-failed']) {
        const kinds = listFlag(v('kind'));
        const back = await store.retryFailed(kinds);
        process.stderr.write(`anwc: ${back} failed link(s)${kinds.length > 0 ? ` of ${kinds.join(', ')}` : ''} put back in the frontier\n`);
      } else if (argv.kind !== undefined && resolved(argv, 'kind').source !== 'file') {
        // A kind in the configuration file is the default of retry runs; only a flag misplaced is an error.
        throw new UserError('--kind only applies with --retry-failed', { value: String(argv.kind), fix: 'add --retry-failed, or leave out --kind' });
      }
      // Refusals by an earlier run's settings (address policy, scope) are this run's to judge again.
      const requeued = await store.requeueRefused();
      if (requeued > 0) process.stderr.write(`anwc: ${requeued} link(s) refused by an earlier run's settings are looked at again\n`);
      const before = await store.summary();
      const waiting = (before.links.pending ?? 0) + (before.links.leased ?? 0);
      const walked = (before.links.done ?? 0) + (before.links.failed ?? 0) + (before.links.excluded ?? 0);
      // A frontier walked to its end is done, not a mistake: a worker started after its siblings
      // walked it, or the studio's Harvest button on a finished crawl.
      if (waiting === 0 && (walked > 0 || process.env[WORKER_ENV])) {
        const failed = before.links.failed ?? 0;
        process.stderr.write(process.env[WORKER_ENV] ? 'anwc: nothing left to walk: the other workers walked the frontier\n'
          : `anwc: nothing left to harvest: all ${walked} known links were walked; run anwc seed --all, or import new markup and anwc seed${failed > 0 ? `, or anwc harvest --retry-failed for the ${failed} that failed` : ''}\n`);
        // A worker's parent reads its summary as JSON.
        if (argv.json || process.env[WORKER_ENV]) process.stdout.write(`${JSON.stringify({ stop: 'frontier-empty', pagesDone: 0, newNodes: 0 })}\n`);
        return EXIT.OK;
      }
      if (waiting === 0) {
        throw new UserError('nothing to harvest: the frontier holds no link to walk', { fix: 'run anwc import FILE.ane, then anwc seed' });
      }
      const workers = v('workers') as number;
      if (workers > 1) {
        process.stderr.write(`anwc: starting ${workers} workers on ${waiting} links waiting (strategy ${opts.strategy})\n`);
        // The topic profiles are learned once here; each worker reads them (harvest below).
        await (await import('../../feed/profiles.js')).rebuildProfiles(store);
        const runs = await runWorkers(workers, workerArgs(process.argv.slice(2)), store, { db, progress: resolved(argv, 'progress').value !== 'none', maxPages: opts.maxPages, seed: opts.seed });
        process.stdout.write(argv.json ? `${JSON.stringify({ workers: runs })}\n` : `${workersSummary(runs).join('\n')}\n`);
        const code = workersExit(runs);
        return code === EXIT.OK && readNothing(runs.map((r) => r.summary ?? { stop: 'unknown' })) ? noPageRead() : code;
      }
      process.stderr.write(
        walked > 0
          ? `anwc: resuming: ${waiting} links waiting, ${walked} walked before (strategy ${opts.strategy})\n`
          : `anwc: starting: ${waiting} seed links (strategy ${opts.strategy})\n`,
      );
      const view = progressView(resolved(argv, 'progress').value as ProgressMode, opts.maxPages);
      const stopBudget = keepHeapUnder(v('heap-budget') as number);
      // The crawler is loaded only to crawl: `harvest --help` and a refused flag do not need it.
      const { harvest } = await import('../../harvest/harvest.js');
      const { loadTopics } = await import('../../feed/profiles.js');
      const report = await harvest(store, { ...opts, actionThread: actionOnThread(workersHere, cores) }, {
        onStart: (w) => signals.attach(w),
        onProgress: (stats, x) => view.update(stats, { ...x, queue: Math.max(0, waiting + stats.newLinks - stats.pagesDone) }),
      }, process.env[WORKER_ENV] ? await loadTopics(store) : undefined).finally(stopBudget);
      view.stop();
      if (argv.json) {
        process.stdout.write(`${JSON.stringify({ runId: report.runId, stop: report.stop, elapsedMs: report.elapsedMs, ...report.stats.toJSON(), wheel: report.wheel, givenUp: report.givenUp, requeued: requeued + report.requeued })}\n`);
      } else {
        process.stdout.write(`${runSummaryLines(report.stats, report.stop, report.elapsedMs, report.wheel, report.givenUp, report.requeued).join('\n')}\n`);
      }
      if (report.stop === 'interrupted') return EXIT.INTERRUPTED;
      // A worker's parent judges the run by what all its workers read.
      return !process.env[WORKER_ENV] && readNothing([{ ...report.stats, stop: report.stop }]) ? noPageRead() : EXIT.OK;
    } finally {
      signals.undo();
      await store.close().catch(() => undefined);
    }
  }),
};
