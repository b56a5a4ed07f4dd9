import type { Fetcher, UrlVerdict } from './fetcher.js';
import type { FetchOutcome } from './outcome.js';
import { checkRobots, crawlDelay, robotsFromFetch, ROBOTS_MAX_BYTES, type RobotsDecision, type RobotsFetchResult, type RobotsRules } from './robots.js';
import { RobotsCache, robotsOrigin } from './robots-cache.js';
import { parseRetryAfter } from './retry-after.js';

/**
 * Gets robots.txt through the fetcher and hands the result to the pure policy in robots.ts.
 * One fetch per origin: concurrent questions about an origin wait for the same fetch, and the
 * answer is kept in the RobotsCache until it expires.
 */

/** RFC 9309 2.3.1.2: follow at least five redirects. */
export const ROBOTS_MAX_REDIRECTS = 5;

/** What the policy needs from a fetch outcome. A redirect chain that ends badly counts as its last 3xx. */
export function robotsResult(outcome: FetchOutcome): RobotsFetchResult {
  switch (outcome.kind) {
    case 'ok':
      return { status: outcome.status, body: outcome.body };
    case 'http-error': {
      const end = outcome.timing.startMs + outcome.timing.totalMs;
      const retryAfterMs = parseRetryAfter(outcome.headers['retry-after'], end);
      return retryAfterMs === undefined ? { status: outcome.status } : { status: outcome.status, retryAfterMs };
    }
    case 'not-modified':
      return { status: outcome.status };
    case 'failed':
      if ((outcome.failure === 'too-many-redirects' || outcome.failure === 'redirect-loop') && outcome.status !== undefined) {
        return { status: outcome.status };
      }
      return { error: `${outcome.failure}: ${outcome.detail}` };
  }
}

/** Fetches `${origin}/robots.txt` once (no cache) and returns the policy with the outcome behind it. */
export async function fetchRobots(
  fetcher: Fetcher,
  origin: string,
  fetchedAt: number,
  previous?: RobotsRules,
): Promise<{ rules: RobotsRules; outcome: FetchOutcome }> {
  const outcome = await fetcher.fetch(`${origin}/robots.txt`, {
    accept: ['*/*'],
    maxRedirects: ROBOTS_MAX_REDIRECTS,
    // One byte past the limit lets the policy see that the file was longer and say so.
    maxBytes: ROBOTS_MAX_BYTES + 1,
    decode: false,
    sniff: false,
  });
  return { rules: robotsFromFetch(robotsResult(outcome), fetchedAt, previous), outcome };
}

export interface RobotsGateOptions {
  /** The User-Agent (or bare token) whose rules apply. */
  userAgent: string;
  cache?: RobotsCache;
  now?: () => number;
}

export class RobotsGate {
  readonly cache: RobotsCache;
  private readonly inFlight = new Map<string, Promise<RobotsRules>>();
  private readonly now: () => number;
  /** The outcome of the last robots.txt fetch per origin, for `anwc fetch` and `anwc why`. */
  readonly lastOutcome = new Map<string, FetchOutcome>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly options: RobotsGateOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.cache = options.cache ?? new RobotsCache({ now: this.now });
  }

  /** The rules of the URL's origin: from the cache, or fetched now (once, however many ask). */
  async rulesFor(url: string): Promise<RobotsRules> {
    const origin = robotsOrigin(url);
    const cached = await this.cache.get(origin);
    if (cached) return cached;
    let pending = this.inFlight.get(origin);
    if (!pending) {
      pending = (async () => {
        try {
          const previous = await this.cache.stale(origin);
          const { rules, outcome } = await fetchRobots(this.fetcher, origin, this.now(), previous);
          this.lastOutcome.set(origin, outcome);
          await this.cache.put(origin, rules);
          return rules;
        } finally {
          this.inFlight.delete(origin);
        }
      })();
      this.inFlight.set(origin, pending);
    }
    return pending;
  }

  async check(url: string): Promise<RobotsDecision & { rules: RobotsRules }> {
    const rules = await this.rulesFor(url);
    return { ...checkRobots(rules, url, this.options.userAgent), rules };
  }

  /** Crawl-delay in seconds for the URL's origin, for Politeness.setCrawlDelay. */
  async crawlDelay(url: string): Promise<number | undefined> {
    return crawlDelay(await this.rulesFor(url), this.options.userAgent);
  }

  /** A Fetcher `allowUrl` hook: each redirect target must be allowed by its own origin's robots.txt. */
  readonly allowUrl = async (url: string): Promise<UrlVerdict> => {
    const d = await this.check(url);
    return d.allowed ? { allowed: true } : { allowed: false, failure: 'robots', detail: d.reason };
  };
}
