import type { CostClass } from './constraints/constraint.js';
import { ELEMENTS_CAP } from '../html/limits.js';

/**
 * What became of a walked link (practice 3). One value per link, stored with it, so that the run
 * summary, `anwc stats`, `anwc why` and exit codes all read the same facts. On a fetched page,
 * `links` counts the links its actions found and `linksCut` those past the cap of links a page
 * (--max-links-per-page), never looked at nor stored.
 */
export type WalkOutcome =
  /**
   * Fetched and acted on; `nodes` > 0 means the narrative action kept something. `onTopic`, when
   * there were meta words to speak of, counts the nodes linked to at least one of them, `offTopic`
   * those kept though linked to none, `offTopicDropped` those not kept for that (--keep drop);
   * `topicWeight` sums each on-topic node's strongest link weight (its relevance, 0 to 1).
   */
  | { kind: 'harvested'; status: number; nodes: number; onTopic?: number; offTopic?: number; topicWeight?: number; offTopicDropped?: number; blocks: number; rejected: Record<string, number>; links: number; linksCut?: number; truncated?: boolean }
  /** Fetched and acted on by an activity's actions (W4): links to walk, and a score when one was taken. */
  | { kind: 'walked'; status: number; links: number; linksCut?: number; score?: number; title?: string; truncated?: boolean }
  /** Fetched, but meta robots or X-Robots-Tag said noindex: nothing stored from the page. */
  | { kind: 'noindex'; status: number; links: number; linksCut?: number }
  /** The server sent us to another host; the target was added as a link of its own domain. */
  | { kind: 'redirected'; status: number; to: string }
  /** The server said the stored copy is current (conditional GET). */
  | { kind: 'not-modified'; status: number }
  /** A constraint of the activity said no to the fetched page (header or resource class). */
  | { kind: 'rejected'; constraint: string; cost: CostClass; detail?: string }
  /**
   * The run's own settings kept it from the network: the address policy (a private or loopback
   * address without --allow-private or --resolve) or the scope (a context or URI constraint).
   * Not a verdict on the link: the next run looks again, with its own settings.
   */
  | { kind: 'refused'; reason: 'address-refused' | 'out-of-scope'; constraint?: string; detail?: string }
  /**
   * robots.txt forbids the URL for our product token; or, with `retryAt`, robots.txt could not be
   * had (5xx, network) and RFC 9309 says disallow until it can: then the link waits for robots.txt
   * to be read again, and `failures` says how many times in a row it could not be had. `cause`: what
   * that fetch gave (`HTTP 500`, `network error: …`); `status`: its HTTP status, when it answered.
   */
  | { kind: 'robots'; reason: string; rule?: string; retryAt?: number; failures?: number; cause?: string; status?: number }
  /** The server answered with an error status; `retryAt` when it said Retry-After. */
  | { kind: 'http-error'; status: number; retryAt?: number }
  /** The fetch failed before a usable answer: timeout, dns, refused-address, reset, too-large, … */
  | { kind: 'failed'; failure: string; detail?: string };

export type OutcomeKind = WalkOutcome['kind'];

/** The link status the store keeps for an outcome. */
export function statusOf(o: WalkOutcome): 'done' | 'failed' | 'excluded' {
  switch (o.kind) {
    case 'harvested':
    case 'walked':
    case 'noindex':
    case 'not-modified':
    case 'redirected':
      return 'done';
    case 'rejected':
    case 'refused':
    case 'robots':
      return 'excluded';
    case 'http-error':
    case 'failed':
      return 'failed';
  }
}

/** `{kind, detail}` as the store keeps it. */
export function toStored(o: WalkOutcome): { kind: string; detail: Record<string, unknown> } {
  const { kind, ...detail } = o;
  return { kind, detail };
}

/** One line a person reads: what happened to the link and what decided it. */
export function describeOutcome(o: WalkOutcome): string {
  switch (o.kind) {
    case 'harvested':
      return o.nodes > 0
        ? `harvested: HTTP ${o.status}, ${o.nodes} narrative node(s) from ${o.blocks} block(s), ${followed(o)}${inPart(o)}`
        : `walked: HTTP ${o.status}, no block passed the heuristics (${summarizeRejections(o.rejected) || 'no blocks'}), ${followed(o)}${inPart(o)}`;
    case 'walked':
      return `walked: HTTP ${o.status}, ${followed(o)}${o.score !== undefined ? `, score ${o.score.toFixed(4)}` : ''}${inPart(o)}`;
    case 'noindex':
      return `not harvested: the page says noindex (HTTP ${o.status}); ${followed(o)}`;
    case 'not-modified':
      return `not modified since the last fetch (HTTP ${o.status})`;
    case 'redirected':
      return `redirected (HTTP ${o.status}) to another host: ${o.to}, walked as a link of its own`;
    case 'rejected':
      return `not walked: constraint "${o.constraint}" (${o.cost} class) said no${o.detail ? `: ${o.detail}` : ''}`;
    case 'refused':
      return o.reason === 'address-refused'
        ? `not walked: the address is refused by this run's settings${o.detail ? ` (${o.detail})` : ''}; a run with --resolve HOST:ADDRESS or --allow-private walks it`
        : `not walked: out of this run's scope (${o.constraint ?? 'scope'}); a run whose scope includes it walks it`;
    case 'robots':
      return `not walked: ${o.reason.startsWith('robots.txt') ? '' : 'robots.txt '}${o.reason}${o.rule ? ` (${o.rule})` : ''}${o.failures ? `; ${o.failures} failure(s) in a row` : ''}`;
    case 'http-error':
      return `failed: the server answered HTTP ${o.status}`;
    case 'failed':
      return `failed: ${o.failure}${o.detail ? ` (${o.detail})` : ''}`;
  }
}

const inPart = (o: { truncated?: boolean }): string =>
  o.truncated ? `; the page was read only in part (its body was cut at --max-bytes, or its tree at ${ELEMENTS_CAP})` : '';

function followed(o: { links: number; linksCut?: number }): string {
  if (!o.linksCut) return `${o.links} link(s) followed`;
  return `${o.links - o.linksCut} link(s) followed, ${o.linksCut} more past the cap of links a page (--max-links-per-page), not stored`;
}

export function summarizeRejections(rejected: Record<string, number>): string {
  return Object.entries(rejected)
    .sort((a, b) => b[1] - a[1])
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
}
