/**
 * Times and durations of the W4 vocabulary. The paper writes times as Common Lisp universal time
 * (seconds since 1900-01-01T00:00Z, e.g. 3029461200 for 1996-01-01); activity files may also give
 * ISO 8601 dates ("1996-01-01") and, for ages, ISO 8601 durations ("P30D").
 */

/** Seconds from 1900-01-01T00:00Z to the Unix epoch (70 years, 17 of them leap). */
export const UNIVERSAL_EPOCH_OFFSET = 2_208_988_800;

export function universalToMs(universal: number): number {
  return (universal - UNIVERSAL_EPOCH_OFFSET) * 1000;
}

export function msToUniversal(ms: number): number {
  return Math.floor(ms / 1000) + UNIVERSAL_EPOCH_OFFSET;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A universal-time number as is, or an ISO date (UTC when no zone is given) converted; else undefined. */
export function toUniversal(v: number | string): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s);
  if (!ISO_DATE.test(s)) return undefined;
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/.test(s) || s.length === 10 ? s : `${s}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : msToUniversal(ms);
}

/** An HTTP date header (RFC 9110 IMF-fixdate, or the obsolete forms Date.parse reads) as universal time. */
export function httpDateToUniversal(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : msToUniversal(ms);
}

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;

/** Seconds: a number as is, or an ISO 8601 duration of weeks, days, hours, minutes, seconds. */
export function toSeconds(v: number | string): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  const s = v.trim();
  if (/^\d+$/.test(s)) return Number(s);
  const m = DURATION.exec(s);
  if (!m || s === 'P' || /T$/i.test(s)) return undefined;
  const [w, d, h, min, sec] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number];
  return (((w * 7 + d) * 24 + h) * 60 + min) * 60 + sec;
}
