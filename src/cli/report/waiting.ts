import type { WaitingRetries } from '../../store/store.js';

/**
 * What a walk waits for, said the same way in the progress line (bar and JSON), the workers'
 * line and `anwc stats`: links whose retry (or robots.txt) is not due yet, and when the first is.
 */

/**
 * `waiting: 5 links for a retry, next due 12:03:10 UTC (in 42 s), the first after HTTP 503 at
 * a.test`: a run that sits for minutes on a robots.txt that failed says so, and the flag that
 * ends the wait.
 */
export function waitingText(w: WaitingRetries, now: number): string {
  const when = new Date(w.nextAt).toISOString().replace('T', ' ').slice(0, 19);
  // The date only when it is not today's: a wait is mostly minutes.
  const shown = when.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? when.slice(11) : when;
  const cause = w.first && waitCause(w.first);
  return `waiting: ${w.links} link${w.links === 1 ? '' : 's'} for a retry, next due ${shown} UTC (${inWords(w.nextAt - now)})${cause ? `, ${cause}` : ''}`;
}

/** The JSON form: the time as ISO 8601, the seconds left, and what the first link waits for. */
export function waitingJson(w: WaitingRetries | undefined, now: number): { links: number; nextAt: string; inS: number; cause?: string } | null {
  if (!w) return null;
  const cause = w.first && waitCause(w.first);
  return { links: w.links, nextAt: new Date(w.nextAt).toISOString(), inS: Math.max(0, Math.ceil((w.nextAt - now) / 1000)), ...(cause ? { cause } : {}) };
}

/** What put the first link back: `the first on robots.txt of a.test (HTTP 500); --max-retries 0 does not wait`. */
export function waitCause(first: NonNullable<WaitingRetries['first']>): string | undefined {
  let host: string;
  try {
    host = new URL(first.url).host;
  } catch {
    return undefined;
  }
  const d = first.detail;
  if (first.kind === 'robots') {
    return `the first on robots.txt of ${host}${typeof d.cause === 'string' ? ` (${d.cause})` : ''}; --max-retries 0 does not wait`;
  }
  if (first.kind === 'http-error' && typeof d.status === 'number') return `the first after HTTP ${d.status} at ${host}`;
  if (first.kind === 'failed' && typeof d.failure === 'string') return `the first after ${d.failure} at ${host}`;
  return undefined;
}

function inWords(ms: number): string {
  if (ms <= 0) return 'due now';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `in ${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  return `in ${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
}
