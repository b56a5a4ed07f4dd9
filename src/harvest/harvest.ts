import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import seedrandom from 'seedrandom';
import type { Link, Store } from '../store/store.js';
import { Fetcher, type FetcherOptions } from '../web/fetcher.js';
import type { FetchOutcome } from '../web/outcome.js';
import { Politeness, type PolitenessOptions } from '../web/politeness.js';
import { RobotsCache, type RobotsStore } from '../web/robots-cache.js';
import { RobotsGate } from '../web/robots-fetch.js';
import { crawlDelay } from '../web/robots.js';
import { productToken } from '../web/robots-parse.js';
import { userAgentHeader } from '../web/user-agent.js';
import { ConstraintSet, type Constraint } from '../walk/constraints/constraint.js';
import { hosts, httpOnly, maxDepth, maxUrlLength, notBinaryExtension, sameHost } from '../walk/constraints/builtin.js';
import { Walker, type FetchedPage, type StopReason } from '../walk/engine.js';
import type { WalkOutcome } from '../walk/outcome.js';
import { createStrategy, type DomainStrategy, type StrategyName } from '../walk/strategies/strategy.js';
import type { WalkStats } from '../walk/stats.js';
import { narrativeAction, type MetaContext, type NarrativeOptions } from './narrative.js';

/** Everything a harvest run is told; the CLI builds it from flags, tests and the demo directly. */
export interface HarvestOptions {
  strategy: StrategyName;
  concurrency: number;
  seed?: number;
  /** Score a domain gains for a page that yielded a node (thesis: 1). */
  reward: number;
  maxDepth: number;
  maxPages?: number;
  maxPagesPerDomain?: number;
  maxTimeMs?: number;
  /** Host names or `*.domain` patterns the walk stays in; empty means no host limit. */
  hosts?: string[];
  sameHost?: boolean;
  leaseMs: number;
  fetcher: FetcherOptions;
  politeness: PolitenessOptions;
  narrative: Omit<NarrativeOptions, 'reward'>;
}

export interface HarvestReport {
  runId: number;
  stop: StopReason;
  stats: WalkStats;
  elapsedMs: number;
  /** The wheel at the end: top domains, their score and share of all scores. */
  wheel: { host: string; score: number; share: number }[];
  /** Hosts politeness gave up on after errors in a row; their links stay pending for a later run. */
  givenUp: string[];
  strategy: DomainStrategy;
}

export interface HarvestHooks {
  /** Called about once a second with the live counters. */
  onProgress?(stats: WalkStats, extra: { domains: number; elapsedMs: number }): void;
  /** Receives the walker so that a signal handler can stop it. */
  onStart?(walker: Walker): void;
}

/** The walk's constraints in the order the user reads them; the set sorts them by cost once. */
export function harvestConstraints(opts: Pick<HarvestOptions, 'maxDepth' | 'hosts' | 'sameHost' | 'fetcher'>): Constraint[] {
  const cs: Constraint[] = [maxDepth(opts.maxDepth), httpOnly(), maxUrlLength(opts.fetcher.maxUrlLength ?? 2048), notBinaryExtension()];
  if (opts.hosts && opts.hosts.length > 0) cs.push(hosts(opts.hosts));
  if (opts.sameHost) cs.push(sameHost());
  return cs;
}

/**
 * The ANWC activity (thesis chapters 3-4): the roulette walk from the seeded frontier with the
 * narrative action, politeness and robots.txt in front of every fetch. Resumes whatever frontier
 * the store holds; several processes may run it on one MySQL database.
 */
export async function harvest(store: Store, opts: HarvestOptions, hooks: HarvestHooks = {}): Promise<HarvestReport> {
  const started = Date.now();
  const random = seedrandom(opts.seed === undefined ? undefined : String(opts.seed));
  const strategy = createStrategy(opts.strategy);
  const constraints = new ConstraintSet(harvestConstraints(opts));
  const fetcher = new Fetcher(opts.fetcher);
  const politeness = new Politeness({ ...opts.politeness, rng: random });
  const userAgent = userAgentHeader(opts.fetcher.userAgent, opts.fetcher.contact);
  const token = productToken(userAgent);
  const gate = new RobotsGate(fetcher, { userAgent: token, cache: new RobotsCache({ store: robotsByHost(store) }) });
  const metaOf = metaLineage(store);
  const runId = await store.startRun({ params: { ...opts }, seed: opts.seed ?? null });

  const walker = new Walker(
    {
      store,
      strategy,
      constraints,
      random,
      readyAt: (host, now) => {
        const s = politeness.state(host);
        if (s?.gaveUp) return Infinity;
        return politeness.nextReadyAt([host]) ?? now;
      },
      fetch: async (link, signal) => {
        politeness.acquire(link.host);
        let outcome: FetchOutcome | undefined;
        try {
          const decision = await gate.check(link.url);
          politeness.setCrawlDelay(link.host, crawlDelay(decision.rules, token));
          if (!decision.allowed) {
            return { outcome: { kind: 'robots', reason: decision.reason } };
          }
          if (signal.aborted) return { outcome: { kind: 'failed', failure: 'interrupted' } };
          const referer = link.referrerId ? (await store.link(link.referrerId))?.url : undefined;
          let elsewhere: string | undefined;
          outcome = await fetcher.fetch(link.url, {
            referer,
            validators: { etag: link.etag ?? undefined, lastModified: link.lastModified ?? undefined },
            allowUrl: async (url) => {
              // Another host's page belongs to that host's domain on the wheel, under its own
              // politeness and robots.txt: it becomes a link of its own instead of being followed.
              if (new URL(url).hostname !== link.host) {
                elsewhere = url;
                return { allowed: false, failure: 'scope', detail: 'redirect to another host' };
              }
              return gate.allowUrl(url);
            },
          });
          if (elsewhere && outcome.kind === 'failed') {
            return { outcome: { kind: 'redirected', status: outcome.status ?? 0, to: elsewhere }, links: [elsewhere] };
          }
          return pageOrOutcome(outcome);
        } finally {
          politeness.release(link.host, outcome ?? quietOutcome(link));
        }
      },
      act: async (page, link) => narrativeAction(page, await metaOf(link), { ...opts.narrative, reward: opts.reward }),
    },
    { concurrency: opts.concurrency, maxPages: opts.maxPages, maxPagesPerDomain: opts.maxPagesPerDomain, maxTimeMs: opts.maxTimeMs, leaseMs: opts.leaseMs, owner: leaseOwner() },
  );
  hooks.onStart?.(walker);
  const timer = hooks.onProgress
    ? setInterval(() => hooks.onProgress!(walker.stats, { domains: walker.domainsSeen(), elapsedMs: Date.now() - started }), 1000)
    : undefined;
  let stop: StopReason;
  try {
    stop = await walker.run();
  } finally {
    if (timer) clearInterval(timer);
    await fetcher.close();
  }
  const wheel = await topDomains(store, 10);
  const givenUp = walker.hostsGivenUp();
  await store.endRun(runId, { stop, ...walker.stats.toJSON(), givenUp });
  return { runId, stop, stats: walker.stats, elapsedMs: Date.now() - started, wheel, givenUp, strategy };
}

function pageOrOutcome(o: FetchOutcome): { page: FetchedPage } | { outcome: WalkOutcome } {
  switch (o.kind) {
    case 'ok':
      return { page: { url: o.url, finalUrl: o.finalUrl, status: o.status, headers: o.headers, text: o.text ?? '', truncated: o.truncated } };
    case 'not-modified':
      return { outcome: { kind: 'not-modified', status: o.status } };
    case 'http-error':
      return { outcome: { kind: 'http-error', status: o.status } };
    case 'failed':
      return { outcome: { kind: 'failed', failure: o.failure, detail: o.detail } };
  }
}

/** What politeness learns when no request for the page itself went out (robots said no). */
function quietOutcome(link: Link): FetchOutcome {
  return { kind: 'not-modified', status: 304, headers: {}, method: 'GET', url: link.url, finalUrl: link.url, redirects: [], timing: { startMs: Date.now(), totalMs: 0 } };
}

/** The meta words of a link's query lineage, cached per query: nodes found below a query carry its words. */
function metaLineage(store: Store): (link: Link) => Promise<MetaContext> {
  const cache = new Map<number, Promise<MetaContext>>();
  const none: MetaContext = { metaWordIds: [], metaStems: [] };
  return (link) => {
    if (link.queryId == null) return Promise.resolve(none);
    let p = cache.get(link.queryId);
    if (!p) {
      p = store.queryMetaWords(link.queryId).then((ws) => ({ metaWordIds: ws.map((w) => w.id), metaStems: ws.map((w) => w.stem) }));
      cache.set(link.queryId, p);
    }
    return p;
  };
}

async function topDomains(store: Store, n: number): Promise<{ host: string; score: number; share: number }[]> {
  const top = await store.topDomains(n);
  return top.domains.map((d) => ({ host: d.host, score: d.score, share: top.totalScore > 0 ? d.score / top.totalScore : 0 }));
}

/**
 * The store keeps robots.txt beside its domain, keyed by host name, so http and https (and other
 * ports) of one host share one policy, the usual case; the cache speaks in origins.
 */
function robotsByHost(store: Store): RobotsStore {
  return {
    saveRobots: (origin, robots, expiresAt) => store.saveRobots(new URL(origin).hostname, robots, expiresAt),
    loadRobots: (origin, now) => store.loadRobots(new URL(origin).hostname, now),
  };
}

/** host:pid:random — unique per process, readable in the links table when a lease is stuck. */
function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
