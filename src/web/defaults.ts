/**
 * The web layer's defaults in one leaf module (practice 9): the fetcher and the scheduler use
 * them, and the CLI prints them in --help without loading undici.
 */

export const FETCH_DEFAULTS = {
  /** Whole fetch, redirects included. */
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  maxBytes: 4 * 1024 * 1024,
  maxDecodedBytes: 4 * 1024 * 1024,
  /** Decoded:compressed ratio past which a body that fills the cap is called a compression bomb. */
  maxRatio: 100,
  maxRedirects: 5,
  maxUrlLength: 2048,
  /** One, like the politeness default of one request in flight per host; raise both together. */
  connectionsPerOrigin: 1,
} as const;

export const POLITENESS_DEFAULTS = {
  perHost: 1,
  delayMs: 1000,
  /** Crawl-delay is honoured up to this ceiling: a robots.txt asking for hours would stall the crawl. */
  maxDelayMs: 30_000,
  maxRetryAfterMs: 10 * 60_000,
  backoffBaseMs: 2_000,
  backoffMaxMs: 10 * 60_000,
  maxTries: 5,
  /** Slots idle this long with nothing to remember are dropped by `prune`. */
  idleMs: 10 * 60_000,
} as const;
