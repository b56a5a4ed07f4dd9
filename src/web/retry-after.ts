import { POLITENESS_DEFAULTS } from './defaults.js';

/**
 * The longest wait a Retry-After may ask of a link or a host: the server's to ask, ours to bound,
 * so that `Retry-After: 99999999999999999999` neither overflows a database column nor parks a
 * link for decades. One bound for both, so a link never waits on a host that is ready, or the
 * other way round.
 */
export const RETRY_AFTER_MAX_MS = POLITENESS_DEFAULTS.maxRetryAfterMs;

/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date. Milliseconds from `now`, from 0 up
 * to `maxMs`; undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number, maxMs = RETRY_AFTER_MAX_MS): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let wait: number;
  if (/^\d+$/.test(v)) {
    wait = Number(v) * 1000;
  } else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return undefined;
    wait = at - now;
  }
  return Math.min(Math.max(0, wait), maxMs);
}
