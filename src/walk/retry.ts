import type { WalkOutcome } from './outcome.js';
import { statusOf } from './outcome.js';

/**
 * Whether a link's outcome is final, or the link goes back to the frontier for another try. A
 * transient failure (the network, a server in trouble, robots.txt that could not be had) is tried
 * again after Retry-After or a backoff, up to `maxRetries` retries counted across runs; a
 * permanent one (404, 410, other 4xx, robots disallow, a constraint) is final at once.
 */

/** HTTP statuses that say "not now" rather than "not this": RFC 9110 and RFC 6585. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Failures of the way to the server, not of the URL. A DNS lookup is transient only when the resolver failed (SERVFAIL). */
const TRANSIENT_FAILURES: ReadonlySet<string> = new Set(['timeout', 'reset', 'refused', 'network']);

export interface RetryPolicy {
  /** Retries after the first try; the link fails for good after 1 + maxRetries tries. */
  maxRetries: number;
  /** The backoff after the n-th transient failure in a row (jitter included), in ms. */
  backoff(attempt: number): number;
}

export const DEFAULT_MAX_RETRIES = 3;

export type Disposition =
  | { status: 'done' | 'failed' | 'excluded' }
  | { status: 'pending'; notBefore: number; attempt: number };

/** Transient outcomes, and the time the server asked us to come back (Retry-After, robots retry), if any. */
export function transience(o: WalkOutcome): { retryAt?: number } | undefined {
  switch (o.kind) {
    case 'failed':
      if (TRANSIENT_FAILURES.has(o.failure)) return {};
      if (o.failure === 'dns' && /EAI_AGAIN/.test(o.detail ?? '')) return {};
      return undefined;
    case 'http-error':
      return TRANSIENT_STATUSES.has(o.status) ? { retryAt: o.retryAt } : undefined;
    case 'robots':
      return o.retryAt === undefined ? undefined : { retryAt: o.retryAt };
    default:
      return undefined;
  }
}

/**
 * What the store does with the link: `attempts` is how many tries failed transiently before this
 * one. A transient outcome with retries left waits until the later of the server's time and the
 * backoff; the backoff alone when the server named none.
 */
export function dispose(o: WalkOutcome, attempts: number, policy: RetryPolicy, now: number): Disposition {
  const t = transience(o);
  if (!t || attempts >= policy.maxRetries) return { status: statusOf(o) };
  const attempt = attempts + 1;
  const backoffAt = now + policy.backoff(attempt);
  return { status: 'pending', attempt, notBefore: t.retryAt === undefined ? backoffAt : Math.max(t.retryAt, now) };
}
