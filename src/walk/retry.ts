import type { WalkOutcome } from './outcome.js';
import { statusOf } from './outcome.js';

/**
 * Whether a link's outcome is final, or the link goes back to the frontier for another try. A
 * transient failure (the network, a server in trouble) is tried again after Retry-After or a
 * backoff, up to `maxRetries` retries counted across runs; a permanent one (404, 410, other 4xx,
 * robots disallow, a constraint) is final at once. robots.txt that could not be had is its
 * origin's failure, not the link's: the link waits for robots.txt to be read again without
 * spending a try, until robots.txt itself has failed 1 + `maxRetries` times in a row.
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
  /** `attempted`: the link was tried and failed (its attempts grow); false when it waits for its robots.txt. */
  | { status: 'pending'; notBefore: number; attempted: boolean };

/** Transient failures of the link itself, and the time the server asked us to come back (Retry-After), if any. */
export function transience(o: WalkOutcome): { retryAt?: number } | undefined {
  switch (o.kind) {
    case 'failed':
      if (TRANSIENT_FAILURES.has(o.failure)) return {};
      if (o.failure === 'dns' && /EAI_AGAIN/.test(o.detail ?? '')) return {};
      return undefined;
    case 'http-error':
      return TRANSIENT_STATUSES.has(o.status) ? { retryAt: o.retryAt } : undefined;
    default:
      return undefined;
  }
}

/**
 * What the store does with the link: `attempts` is how many tries failed transiently before this
 * one. A transient outcome with retries left waits until the server's time (Retry-After), or the
 * backoff when the server named none; a link whose robots.txt could not be had waits until
 * robots.txt is asked again, its attempts untouched.
 */
export function dispose(o: WalkOutcome, attempts: number, policy: RetryPolicy, now: number): Disposition {
  if (o.kind === 'robots' && o.retryAt !== undefined) {
    const failures = o.failures ?? 1;
    return failures > policy.maxRetries ? { status: statusOf(o) } : { status: 'pending', attempted: false, notBefore: Math.max(o.retryAt, now) };
  }
  const t = transience(o);
  if (!t || attempts >= policy.maxRetries) return { status: statusOf(o) };
  const backoffAt = now + policy.backoff(attempts + 1);
  return { status: 'pending', attempted: true, notBefore: t.retryAt === undefined ? backoffAt : Math.max(t.retryAt, now) };
}
