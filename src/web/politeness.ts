import { POLITENESS_DEFAULTS } from './defaults.js';
import type { FetchOutcome } from './outcome.js';
import { parseRetryAfter } from './retry-after.js';

/**
 * Politeness lives here, in one object keyed by host (practice 10, Scrapy's downloader slots).
 * Lifecycle of a request: the wheel asks `readyHosts(hosts, now)` (or `nextReadyAt` to know
 * how long to wait) → `acquire(host)` → fetch → `release(host, outcome)` (or `cancel(host)` when
 * no request went out), which sets when the
 * host may be asked again: the delay after a success, Retry-After after a 429/503, exponential
 * backoff with jitter after an error, and never again after errors in a row on `maxTries`
 * different pages (the retries of one page that keeps failing say that page is broken, not the host).
 * The clock and the random source are injected, so all of it is testable without sleeping.
 */

export { POLITENESS_DEFAULTS };

export interface PolitenessOptions {
  perHost?: number;
  delayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  maxTries?: number;
  /** Hosts never given up however many errors they answer (the site a link check is about): slowed only. */
  keepHosts?: ReadonlySet<string>;
  idleMs?: number;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Uniform in [0, 1): the jitter of the backoff. */
  rng?: () => number;
}

export interface HostState {
  inFlight: number;
  /** Earliest epoch ms at which a new request may start. */
  nextAt: number;
  /** The delay between requests now in force (the default, or Crawl-delay within the ceiling). */
  delayMs: number;
  /** Errors in a row; 0 after any answer. */
  errors: number;
  /** The pages (URLs) those errors came from, when the caller named them. */
  failedPages: number;
  gaveUp: boolean;
  /** Why the host waits: 'delay', 'retry-after', 'backoff', or 'gave up after N errors'. */
  reason: string;
  lastUsed: number;
}

/** How an outcome bears on the host: answered, asked us to wait, or looked unwell. */
export type HostSignal = { kind: 'answered' } | { kind: 'throttled'; waitMs: number | undefined } | { kind: 'error' };

/** Errors that say the host (or the way to it) is in trouble; the rest are about the URL. */
const HOST_TROUBLE = new Set(['timeout', 'reset', 'refused', 'dns', 'tls', 'network']);

/** `maxRetryAfterMs` bounds the wait a Retry-After may ask (RETRY_AFTER_MAX_MS by default). */
export function hostSignal(outcome: FetchOutcome, now: number, maxRetryAfterMs?: number): HostSignal {
  if (outcome.kind === 'failed') return HOST_TROUBLE.has(outcome.failure) ? { kind: 'error' } : { kind: 'answered' };
  if (outcome.kind === 'http-error' && (outcome.status === 429 || outcome.status === 503)) {
    return { kind: 'throttled', waitMs: parseRetryAfter(outcome.headers['retry-after'], now, maxRetryAfterMs) };
  }
  if (outcome.kind === 'http-error' && outcome.status >= 500) return { kind: 'error' };
  return { kind: 'answered' };
}

export class Politeness {
  private readonly slots = new Map<string, HostState>();
  /** The pages of each host's errors in a row; kept apart from HostState, whose copies are handed out. */
  private readonly failedUrls = new Map<string, Set<string>>();
  private readonly o: Required<Omit<PolitenessOptions, 'now' | 'rng' | 'keepHosts'>>;
  private readonly keepHosts: ReadonlySet<string>;
  private readonly now: () => number;
  private readonly rng: () => number;

  constructor(options: PolitenessOptions = {}) {
    const { now, rng, keepHosts, ...rest } = options;
    this.o = { ...POLITENESS_DEFAULTS, ...stripUndefined(rest) };
    this.keepHosts = keepHosts ?? new Set();
    this.now = now ?? Date.now;
    this.rng = rng ?? Math.random;
  }

  private slot(host: string): HostState {
    let s = this.slots.get(host);
    if (!s) {
      s = { inFlight: 0, nextAt: 0, delayMs: this.o.delayMs, errors: 0, failedPages: 0, gaveUp: false, reason: 'new', lastUsed: this.now() };
      this.slots.set(host, s);
    }
    return s;
  }

  /** Crawl-delay from robots.txt, in seconds (undefined: back to the default). Never below the default delay. */
  setCrawlDelay(host: string, seconds: number | undefined): void {
    const asked = seconds === undefined ? 0 : seconds * 1000;
    this.slot(host).delayMs = Math.min(Math.max(this.o.delayMs, asked), Math.max(this.o.maxDelayMs, this.o.delayMs));
  }

  /** Requests a host may have in flight at once (--per-host). */
  get perHost(): number {
    return this.o.perHost;
  }

  /** The delay between requests to a host unless its Crawl-delay asks more (--delay). */
  get baseDelayMs(): number {
    return this.o.delayMs;
  }

  /** The delay between requests to the host now in force: the default, or its Crawl-delay. */
  delayOf(host: string): number {
    return this.slots.get(host)?.delayMs ?? this.o.delayMs;
  }

  isReady(host: string, now = this.now()): boolean {
    const s = this.slots.get(host);
    if (!s) return true;
    return !s.gaveUp && s.inFlight < this.o.perHost && now >= s.nextAt;
  }

  readyHosts(hosts: Iterable<string>, now = this.now()): string[] {
    const out: string[] = [];
    for (const h of hosts) if (this.isReady(h, now)) out.push(h);
    return out;
  }

  /**
   * The earliest epoch ms at which one of `hosts` will be ready, `now` or earlier when one is
   * ready already; undefined when none will be until a request in flight comes back (or all
   * were given up).
   */
  nextReadyAt(hosts: Iterable<string>): number | undefined {
    let best: number | undefined;
    for (const h of hosts) {
      const s = this.slots.get(h);
      const at = !s ? 0 : s.gaveUp || s.inFlight >= this.o.perHost ? undefined : s.nextAt;
      if (at !== undefined && (best === undefined || at < best)) best = at;
    }
    return best;
  }

  /** Takes a request slot; false when the host is not ready (the caller asked too early). */
  acquire(host: string, now = this.now()): boolean {
    if (!this.isReady(host, now)) return false;
    const s = this.slot(host);
    s.inFlight++;
    s.lastUsed = now;
    // With several requests allowed in flight their starts are still spaced by the delay.
    s.nextAt = now + s.delayMs;
    s.reason = 'delay';
    return true;
  }

  /**
   * Gives back a slot that sent no request (nothing was left to fetch, or the run's own settings
   * refused the link): the delay taken at acquire stands, and nothing is learned about the host.
   */
  cancel(host: string, now = this.now()): void {
    const s = this.slot(host);
    s.inFlight = Math.max(0, s.inFlight - 1);
    s.lastUsed = now;
  }

  /**
   * Gives the slot back and learns from the outcome when the host may be asked again. `url`, the
   * page asked: a host is given up only after errors in a row on `maxTries` different pages.
   */
  release(host: string, outcome: FetchOutcome, now = this.now(), url?: string): HostState {
    const s = this.slot(host);
    s.inFlight = Math.max(0, s.inFlight - 1);
    s.lastUsed = now;
    const signal = hostSignal(outcome, now, this.o.maxRetryAfterMs);
    if (signal.kind === 'answered') {
      s.errors = 0;
      s.failedPages = 0;
      this.failedUrls.delete(host);
      s.nextAt = Math.max(s.nextAt, now + s.delayMs);
      s.reason = 'delay';
    } else if (signal.kind === 'throttled' && signal.waitMs !== undefined) {
      s.nextAt = now + Math.max(s.delayMs, signal.waitMs);
      s.reason = 'retry-after';
    } else {
      s.errors++;
      s.failedPages = this.failedPage(host, url);
      if (s.failedPages >= this.o.maxTries && !this.keepHosts.has(host)) {
        s.gaveUp = true;
        s.reason = `gave up after ${s.errors} errors in a row on ${s.failedPages} pages`;
      } else {
        s.nextAt = now + Math.max(s.delayMs, this.backoff(s.errors));
        s.reason = 'backoff';
      }
    }
    return { ...s };
  }

  /** How many different pages the host's errors in a row came from, `url` counted (a page not named counts as a new one). */
  private failedPage(host: string, url: string | undefined): number {
    let urls = this.failedUrls.get(host);
    if (!urls) this.failedUrls.set(host, (urls = new Set()));
    urls.add(url ?? `#${urls.size}`);
    return urls.size;
  }

  /** base·2^(n-1), capped, times a jitter in [0.5, 1.5) so hosts that failed together do not retry together. */
  backoff(errors: number): number {
    const raw = Math.min(this.o.backoffBaseMs * 2 ** (errors - 1), this.o.backoffMaxMs);
    return Math.round(raw * (0.5 + this.rng()));
  }

  state(host: string): HostState | undefined {
    const s = this.slots.get(host);
    return s && { ...s };
  }

  /** Hosts whose last answers were errors, with how many in a row: what a report says of links left untested there. */
  failing(): Map<string, number> {
    return new Map([...this.slots].filter(([, s]) => s.errors > 0).map(([h, s]) => [h, s.errors]));
  }

  /** Drops slots idle past `idleMs` that hold nothing worth keeping (no wait, no errors, nothing in flight). */
  prune(now = this.now()): number {
    let dropped = 0;
    for (const [h, s] of this.slots) {
      const forgettable = s.inFlight === 0 && s.errors === 0 && !s.gaveUp && s.nextAt <= now;
      if (forgettable && now - s.lastUsed >= this.o.idleMs && s.delayMs === this.o.delayMs) {
        this.slots.delete(h);
        dropped++;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.slots.size;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
