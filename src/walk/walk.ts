import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import seedrandom from 'seedrandom';
import type { Link, LinkOrder, Store, WaitingRetries } from '../store/store.js';
import { Fetcher, type FetcherOptions } from '../web/fetcher.js';
import { Politeness, POLITENESS_DEFAULTS, type PolitenessOptions } from '../web/politeness.js';
import type { RobotsRules } from '../web/robots.js';
import { robotsToken } from '../web/user-agent.js';
import { ConstraintSet, type Constraint } from './constraints/constraint.js';
import { Walker, type ActResult, type StopReason } from './engine.js';
import { FetchStep, type FetchedPage, type FetchResult } from './fetch-step.js';
import type { WalkOutcome } from './outcome.js';
import type { Answer } from '../web/outcome.js';
import { DEFAULT_MAX_RETRIES } from './retry.js';
import type { WalkStats } from './stats.js';
import { WaitingWatch } from './waiting.js';
import type { DelayBound } from './delay-watch.js';
import { createStrategy, type DomainStrategy, type StrategyName } from './strategies/strategy.js';

/**
 * Runs an activity on the engine: the same fetch step, politeness, robots, address checks,
 * leases, retries, resume and outcome records for every activity. An activity brings only what
 * is its own: its constraints, its actions on a page, and what a page is worth to the wheel.
 */

export interface Activity {
  name: string;
  /** In the order the user reads them; the set sorts them by cost class once. */
  constraints: Constraint[];
  /** The actions on a fetched page. `token` is the crawler's robots.txt product token. */
  act(page: FetchedPage, link: Link, ctx: { token: string }): Promise<ActResult>;
  /** The request for a link: HEAD when the activity only tests it (see WalkPorts.method); GET by default. */
  method?(link: Link): 'GET' | 'HEAD';
  /** Added to the domain's score after a page; none by default. */
  reward?(outcome: WalkOutcome): number;
  /** A page with a reward above 0 counts the depth of its links afresh, as a seed does (see WalkPorts). */
  rewardResetsDepth?: boolean;
  /** The order of a domain's links when the actions give priorities (best-first); the strategy's otherwise. */
  linkOrder?: LinkOrder;
}

/** How a walk runs, whatever the activity. */
export interface WalkRunOptions {
  strategy: StrategyName;
  concurrency: number;
  seed?: number;
  maxPages?: number;
  maxPagesPerDomain?: number;
  /** Links stored from one page (DEFAULT_MAX_LINKS_PER_PAGE when not given); the rest are counted. */
  maxLinksPerPage?: number;
  maxTimeMs?: number;
  leaseMs: number;
  /** Retries of a transient failure, across runs, before the link fails for good. */
  maxRetries?: number;
  fetcher: FetcherOptions;
  politeness: PolitenessOptions;
  /** Results shared with the other walks of one run (see FetchStepOptions.shared). */
  shared?: Map<string, FetchResult>;
  /** robots.txt rules shared with the other walks of one run (see FetchStepOptions.robots). */
  robots?: Map<string, RobotsRules>;
  /** Validators of copies kept outside the store, for conditional GETs (the archive's refresh). */
  validators?: (url: string) => { etag?: string; lastModified?: string } | undefined;
  /** Every answer that is not a page, for a recorder (see FetchStepOptions.onAnswer). */
  onAnswer?: (answer: Answer) => Promise<void>;
}

export interface WalkReport {
  runId: number;
  stop: StopReason;
  stats: WalkStats;
  elapsedMs: number;
  /** The wheel at the end: top domains, their score and share of all scores. */
  wheel: { host: string; score: number; share: number }[];
  /** Hosts politeness gave up on after errors in a row; their links stay pending for a later run. */
  givenUp: string[];
  /** Hosts whose last answers were errors at the run's end, with how many in a row. */
  failing: Record<string, number>;
  /** Links refused by an earlier run's settings, put back to be looked at again by this one. */
  requeued: number;
  strategy: DomainStrategy;
}

export interface WalkHooks {
  /**
   * Called about once a second with the live counters, what the walk waits for when it has been
   * idle a while, and whether the politeness delay set its pace over the last second.
   */
  onProgress?(stats: WalkStats, extra: { domains: number; elapsedMs: number; waiting?: WaitingRetries; delayBound?: DelayBound }): void;
  /** Receives the walker so that a signal handler can stop it. */
  onStart?(walker: Walker): void;
}

export async function runActivity(
  store: Store, activity: Activity, opts: WalkRunOptions, params: Record<string, unknown>, hooks: WalkHooks = {},
): Promise<WalkReport> {
  const started = Date.now();
  const random = seedrandom(opts.seed === undefined ? undefined : String(opts.seed));
  const strategy = createStrategy(opts.strategy);
  const politeness = new Politeness({ ...opts.politeness, rng: random });
  const token = robotsToken(opts.fetcher.userAgent, opts.fetcher.contact);
  // Politeness decides how many requests a host gets at once; the connection pool must not be a
  // second, hidden limit below it.
  const perHost = opts.politeness.perHost ?? POLITENESS_DEFAULTS.perHost;
  const connections = Math.max(opts.fetcher.connectionsPerOrigin ?? 1, perHost);
  const step = new FetchStep(store, new Fetcher({ ...opts.fetcher, connectionsPerOrigin: connections }), {
    token, politeness, validators: opts.validators, shared: opts.shared, robots: opts.robots, maxRetries: opts.maxRetries, onAnswer: opts.onAnswer,
  });
  // A link the last run's settings refused is not refused by this run's until it says so.
  const requeued = await store.requeueRefused();
  await releaseDeadLeases(store);
  const runId = await store.startRun({ params: { activity: activity.name, ...params }, seed: opts.seed ?? null });

  const walker = new Walker(
    {
      store,
      strategy,
      constraints: new ConstraintSet(activity.constraints),
      politeness,
      random,
      fetch: (link, signal, method, referer) => step.fetch(link, signal, method, referer),
      dns: (host) => step.dns(host),
      linkOrder: activity.linkOrder,
      act: (page, link) => activity.act(page, link, { token }),
      method: activity.method ? (link) => activity.method!(link) : undefined,
      reward: (o) => activity.reward?.(o) ?? 0,
      rewardResetsDepth: activity.rewardResetsDepth,
      retry: { maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES, backoff: (n) => politeness.backoff(n) },
    },
    {
      concurrency: opts.concurrency,
      maxPages: opts.maxPages,
      maxPagesPerDomain: opts.maxPagesPerDomain,
      maxLinksPerPage: opts.maxLinksPerPage,
      maxTimeMs: opts.maxTimeMs,
      leaseMs: opts.leaseMs,
      owner: leaseOwner(),
      maxUrlLength: opts.fetcher.maxUrlLength,
    },
  );
  hooks.onStart?.(walker);
  const owner = walker.owner;
  const beat = () => store.heartbeat(owner, { now: Date.now(), leaseMs: opts.leaseMs, pages: walker.stats.pagesStarted });
  await beat();
  // A failed beat is not the run's end: the loop meets the same store and says so.
  const heart = setInterval(() => void beat().catch(() => undefined), heartbeatMs(opts.leaseMs));
  const watch = new WaitingWatch(store);
  let ended = false;
  let ticking: Promise<void> | undefined;
  const progress = async () => {
    const waits = walker.delayBound();
    const delayBound: DelayBound | undefined = waits && {
      ...waits, delayMs: politeness.delayOf(waits.host), baseDelayMs: politeness.baseDelayMs, perHost, concurrency: opts.concurrency,
    };
    const waiting = await watch.read(walker.idleSince(), Date.now());
    if (!ended) {
      hooks.onProgress!(walker.stats, { domains: walker.domainsSeen(), elapsedMs: Date.now() - started, ...(waiting ? { waiting } : {}), ...(delayBound ? { delayBound } : {}) });
    }
  };
  const timer = hooks.onProgress ? setInterval(() => void (ticking ??= progress().finally(() => (ticking = undefined))), 1000) : undefined;
  let stop: StopReason;
  try {
    stop = await walker.run();
  } finally {
    if (timer) clearInterval(timer);
    // No progress after the run's end, and no question to the store left outstanding.
    ended = true;
    await ticking?.catch(() => undefined);
    clearInterval(heart);
    await step.close();
  }
  await store.workerStopped(owner);
  const wheel = await topDomains(store, 10);
  const givenUp = walker.hostsGivenUp();
  await store.endRun(runId, { stop, ...walker.stats.toJSON(), givenUp, requeued });
  return { runId, stop, stats: walker.stats, elapsedMs: Date.now() - started, wheel, givenUp, failing: Object.fromEntries(politeness.failing()), requeued, strategy };
}

async function topDomains(store: Store, n: number): Promise<{ host: string; score: number; share: number }[]> {
  const top = await store.topDomains(n);
  return top.domains.map((d) => ({ host: d.host, score: d.score, share: top.totalScore > 0 ? d.score / top.totalScore : 0 }));
}

/**
 * Leases of processes on this machine that are gone (killed, crashed, the store failed under
 * them) come back at once, so a rerun does not wait out their lease. Other machines' leases
 * expire as usual: their processes cannot be seen from here.
 */
export async function releaseDeadLeases(store: Store): Promise<number> {
  let released = 0;
  const here = hostname();
  for (const owner of await store.leaseOwners()) {
    const [host, pid] = owner.split(':');
    if (host === here && pid !== undefined && /^\d+$/.test(pid) && !alive(Number(pid))) released += await store.releaseLeasesOf(owner);
  }
  return released;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, and belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Beats often enough that a lease is renewed thrice before it would run out: a worker busy with a
 * slow page keeps its link, and a dead one's links come back within one lease.
 */
export function heartbeatMs(leaseMs: number): number {
  return Math.min(Math.max(Math.floor(leaseMs / 3), 250), 30_000);
}

/** host:pid:random — unique per process, readable in the links table when a lease is stuck. */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
