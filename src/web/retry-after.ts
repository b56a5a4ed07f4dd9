/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date. Milliseconds from `now`, never
 * negative; undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at) || !/[a-z]/i.test(v)) return undefined;
  return Math.max(0, at - now);
}
