import { UserError } from '../errors.js';
import { EXIT } from './exit.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';
import { hosts as hostsConstraint, httpOnly, maxUrlLength } from '../walk/constraints/builtin.js';
import type { Constraint } from '../walk/constraints/constraint.js';
import type { StrategyName } from '../walk/strategies/strategy.js';
import { describeOutcome, type WalkOutcome } from '../walk/outcome.js';
import { transience } from '../walk/retry.js';
import { runActivity, type Activity, type WalkReport, type WalkRunOptions } from '../walk/walk.js';
import { hostOf, normalizeUrl } from '../web/url.js';
import { listFlag } from './list-flag.js';
import { resolved, type OptionName } from './options.js';
import { progressView, type ProgressMode } from './progress.js';
import { runSummaryLines } from './report/summary.js';
import { onStopSignals } from './signals.js';
import { fetcherOptionsFrom, FETCH_OPTION_NAMES, politenessOptionsFrom, POLITENESS_OPTION_NAMES } from './web-options.js';

/**
 * What `anwc walk`, `map`, `locate` and `archive` share: the root URLs, the state database, the
 * walk's flags, Ctrl-C and SIGTERM, progress and the run summary. Each command brings its
 * activity and writes its own output from the report this returns.
 */

export const WALK_OPTIONS = [
  'state', 'strategy', 'concurrency', 'seed', 'max-pages', 'max-pages-per-domain', 'max-links-per-page', 'max-time', 'hosts', 'lease', 'max-retries',
  'progress', 'json', ...FETCH_OPTION_NAMES, ...POLITENESS_OPTION_NAMES,
] as const satisfies readonly OptionName[];

/** The engine's options from the flags; `strategy` when the flag is not given comes from the activity. */
export function walkRunOptionsFrom(argv: Record<string, unknown>, strategy?: string): WalkRunOptions {
  const v = (name: OptionName) => resolved(argv, name);
  const maxTime = v('max-time').value as number | undefined;
  const chosen = v('strategy').source === 'flag' ? v('strategy').value : (strategy ?? 'bfs');
  return {
    strategy: chosen as StrategyName,
    concurrency: v('concurrency').value as number,
    seed: v('seed').value as number | undefined,
    maxPages: v('max-pages').value as number | undefined,
    maxPagesPerDomain: v('max-pages-per-domain').value as number | undefined,
    maxLinksPerPage: v('max-links-per-page').value as number,
    maxTimeMs: maxTime === undefined ? undefined : maxTime * 1000,
    leaseMs: (v('lease').value as number) * 1000,
    maxRetries: v('max-retries').value as number,
    fetcher: fetcherOptionsFrom(argv),
    politeness: politenessOptionsFrom(argv),
  };
}

/** Constraints every walk gets: http(s) only, the URL length cap, and --hosts when given. */
export function safetyConstraints(argv: Record<string, unknown>, opts: WalkRunOptions): Constraint[] {
  const out = [httpOnly(), maxUrlLength(opts.fetcher.maxUrlLength ?? 2048)];
  const hosts = listFlag(resolved(argv, 'hosts').value);
  if (hosts.length > 0) out.push(hostsConstraint(hosts));
  return out;
}

/** The root URLs, normalised as every link is; a bad one is the user's to fix. */
export function rootLinks(urls: readonly string[]): { url: string; host: string; depth: number }[] {
  if (urls.length === 0) throw new UserError('no URL to start from', { fix: 'give one or more http(s) URLs' });
  return urls.map((raw) => {
    const n = normalizeUrl(String(raw));
    if (!n.ok) throw new UserError(`cannot walk from ${String(raw)}: ${n.detail}`, { value: String(raw), fix: 'give an absolute http(s) URL, e.g. https://example.org/' });
    return { url: n.url, host: hostOf(n.url), depth: 0 };
  });
}

export interface WalkCommandResult {
  report: WalkReport;
  store: Store;
  /** The roots as the walk stored them (normalized, no password): what the command's output names. */
  roots: string[];
  /** Root URLs the run did not get an answer for, each with why (already printed to stderr). */
  rootsNotWalked: { url: string; why: string }[];
}

/**
 * Roots the run could not walk: refused by its settings or robots.txt, failed with no answer from
 * the server, answered only "not now" (a 429, a 503) through every retry, or never reached. A
 * lasting error status is an answer (a 404 root is a finding of its own), and so is a no from the
 * activity's own constraints: neither is counted here.
 */
export async function rootsNotWalked(store: Store, roots: readonly string[]): Promise<{ url: string; why: string }[]> {
  const out: { url: string; why: string }[] = [];
  for (const url of roots) {
    const link = await store.linkByUrl(url);
    const outcome = link?.outcome && ({ kind: link.outcome.kind, ...(link.outcome.detail ?? {}) } as WalkOutcome);
    const answered = outcome?.kind === 'rejected' || (outcome?.kind === 'http-error' && !transience(outcome));
    if (link?.status === 'done' || answered) continue;
    const why = outcome ? describeOutcome(outcome)
      : link?.status === 'leased' ? 'not walked: another run holds it'
      : 'not walked: the run ended before it was reached (a budget, or a retry not yet due)';
    out.push({ url, why });
  }
  return out;
}

/** The exit code of a walking command: interrupted, a root or a given-up host's links not walked (the work asked for was not done), or done. */
export function walkExit(ran: Pick<WalkCommandResult, 'report' | 'rootsNotWalked'>): number {
  if (ran.report.stop === 'interrupted') return EXIT.INTERRUPTED;
  return ran.rootsNotWalked.length > 0 || ran.report.givenUp.length > 0 ? EXIT.PROBLEMS : EXIT.OK;
}

/**
 * Seeds the roots into the state database (after `prepare`, e.g. robots rules known from
 * elsewhere) and runs the activity to its end; the caller writes
 * its output and then closes `store`. Prints progress and the run summary to stderr (stdout is
 * the command's own).
 */
export async function walkCommand(
  argv: Record<string, unknown>, activity: Activity, roots: readonly string[], opts: WalkRunOptions, title: string,
  prepare?: (state: Store) => Promise<void>,
): Promise<WalkCommandResult> {
  const links = rootLinks(roots);
  const store = await openStore(String(resolved(argv, 'state').value));
  const signals = onStopSignals();
  try {
    await prepare?.(store);
    const added = await store.addLinks(links);
    process.stderr.write(`anwc: ${title}: ${activity.name} from ${links.length} root(s)${added < links.length ? `, ${links.length - added} known from before (resuming)` : ''}\n`);
    const view = progressView(resolved(argv, 'progress').value as ProgressMode, opts.maxPages);
    const report = await runActivity(store, activity, opts, { roots: links.map((l) => l.url), strategy: opts.strategy }, {
      onStart: (w) => signals.attach(w),
      onProgress: (stats, x) => view.update(stats, { ...x, queue: Math.max(0, links.length + stats.newLinks - stats.pagesDone) }),
    });
    view.stop();
    const lines = runSummaryLines(report.stats, report.stop, report.elapsedMs, report.wheel, report.givenUp, report.requeued, title);
    process.stderr.write(`${lines.join('\n')}\n`);
    const notWalked = report.stop === 'interrupted' ? [] : await rootsNotWalked(store, links.map((l) => l.url));
    for (const r of notWalked) process.stderr.write(`anwc: root ${r.url} ${r.why}\n`);
    if (report.givenUp.length > 0 && report.stop !== 'interrupted') {
      const keep = String(resolved(argv, 'state').value).endsWith(':memory:') ? ' (give --state DB to keep them for it)' : ' with the same --state';
      process.stderr.write(`anwc: links of ${report.givenUp.join(', ')} not walked: the host was given up after errors in a row; rerun${keep} when it answers\n`);
    }
    return { report, store, roots: links.map((l) => l.url), rootsNotWalked: notWalked };
  } catch (err) {
    await store.close();
    throw err;
  } finally {
    signals.undo();
  }
}
