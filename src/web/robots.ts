import { urlPathForRobots } from './robots-encoding.js';
import { decidingRule, groupsFor } from './robots-match.js';
import { parseRobots, productToken, type Directive, type ParsedRobots } from './robots-parse.js';

/**
 * The robots.txt policy of one origin (RFC 9309), as plain data so the store can persist it with
 * its expiry (MOMspider's sites file) and re-parse it on load. Everything here is pure: the
 * fetcher fetches, the cache keeps, these functions decide.
 */

export { productToken } from './robots-parse.js';

/** RFC 9309 §2.5: parse at least 500 KiB; we parse exactly that much and no more. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/** RFC 9309 §2.4: a cached robots.txt should not be used for more than 24 hours. */
export const ROBOTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** After an unreachable robots.txt, try again after this long, doubling per failure in a row. */
export const ROBOTS_RETRY_BASE_MS = 5 * 60 * 1000;
export const ROBOTS_RETRY_MAX_MS = ROBOTS_MAX_AGE_MS;

export type RobotsKind = 'full' | 'allow-all' | 'disallow-all';

export interface RobotsRules {
  kind: RobotsKind;
  /** The robots.txt text, cut to ROBOTS_MAX_BYTES at a line end; '' unless kind is 'full'. */
  text: string;
  /** The body was longer than ROBOTS_MAX_BYTES and was cut. */
  truncated: boolean;
  /** What the fetch gave: `HTTP 404`, `network error: ECONNRESET`. */
  cause: string;
  /** The HTTP status, when the server answered at all. */
  status?: number;
  /** Epoch milliseconds. */
  fetchedAt: number;
  /** After this (epoch ms) the rules are stale and robots.txt must be fetched again. */
  expiresAt: number;
  /** For 'disallow-all': when to try again (epoch ms); equals expiresAt. */
  retryAfter?: number;
  /** Unreachable fetches in a row, which makes retryAfter grow; 0 after any answer. */
  failures: number;
}

/**
 * What the fetcher reports for `/robots.txt`, after following up to 5 redirects itself. When it
 * gives up on a longer chain it reports the last 3xx status, which RFC 9309 §2.3.1.2 lets us read
 * as "unavailable" (allow all). The body may be bytes (a BOM, even a partial one, is skipped) or
 * already decoded text. `retryAfterMs`: the wait the server's Retry-After asked, already bounded.
 */
export type RobotsFetchResult = { status: number; body?: string | Uint8Array; retryAfterMs?: number } | { error: string };

export interface RobotsDecision {
  allowed: boolean;
  /** The rule that decided, when one did. */
  rule?: { line: number; directive: Directive; pattern: string };
  /** One phrase for logs and `anwc why`: `disallow: /private at line 3`, `no rule matched`. */
  reason: string;
}

/** Whether a value read back from storage is a RobotsRules this version can use. */
export function isRobotsRules(x: unknown): x is RobotsRules {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return (
    (r.kind === 'full' || r.kind === 'allow-all' || r.kind === 'disallow-all') &&
    typeof r.text === 'string' &&
    typeof r.truncated === 'boolean' &&
    typeof r.cause === 'string' &&
    typeof r.fetchedAt === 'number' &&
    typeof r.expiresAt === 'number' &&
    typeof r.failures === 'number' &&
    (r.retryAfter === undefined || typeof r.retryAfter === 'number') &&
    (r.status === undefined || typeof r.status === 'number')
  );
}

/** Cuts the body to ROBOTS_MAX_BYTES at the last line end inside the cap, skips a BOM, decodes UTF-8. */
export function readRobotsBody(body: string | Uint8Array): { text: string; truncated: boolean } {
  let bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // A full BOM, or the partial ones EF BB and EF, as Google skips them.
  let start = 0;
  if (bytes[0] === 0xef) start = bytes[1] === 0xbb ? (bytes[2] === 0xbf ? 3 : 2) : 1;
  bytes = bytes.subarray(start);
  let truncated = false;
  if (bytes.length > ROBOTS_MAX_BYTES) {
    truncated = true;
    let end = ROBOTS_MAX_BYTES;
    while (end > 0 && bytes[end - 1] !== 0x0a && bytes[end - 1] !== 0x0d) end--;
    // A line that does not end within the cap is dropped whole: half a rule is a different rule.
    bytes = bytes.subarray(0, end);
  }
  return { text: new TextDecoder('utf-8').decode(bytes), truncated };
}

function retryDelay(failures: number): number {
  return Math.min(ROBOTS_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), ROBOTS_RETRY_MAX_MS);
}

function unreachable(cause: string, fetchedAt: number, previous?: RobotsRules, answered?: { status: number; retryAfterMs?: number }): RobotsRules {
  const failures = (previous?.kind === 'disallow-all' ? previous.failures : 0) + 1;
  const retryAfter = fetchedAt + (answered?.retryAfterMs ?? retryDelay(failures));
  const status = answered ? { status: answered.status } : {};
  return { kind: 'disallow-all', text: '', truncated: false, cause, ...status, fetchedAt, expiresAt: retryAfter, retryAfter, failures };
}

/**
 * The policy for a fetch result (RFC 9309 §2.3.1): 2xx → the rules in the body; 3xx (more than 5
 * redirects) and 4xx → unavailable, allow all; 5xx, a network error or any other status →
 * unreachable, disallow all until `retryAfter`, which doubles with each failure in a row (pass the
 * previous rules of the origin as `previous`), or until the time the server's Retry-After named:
 * a server that says when to come back is asked then, so a run is not parked for minutes on a
 * robots.txt the server promised in a second. 429 counts as unreachable, not as a 4xx: the server
 * is asking us to slow down, and allowing all would do the opposite (Google reads it the same way).
 */
export function robotsFromFetch(result: RobotsFetchResult, fetchedAt: number, previous?: RobotsRules): RobotsRules {
  if ('error' in result) return unreachable(`network error: ${result.error}`, fetchedAt, previous);
  const { status } = result;
  const cause = `HTTP ${status}`;
  const expiresAt = fetchedAt + ROBOTS_MAX_AGE_MS;
  if (status >= 200 && status < 300) {
    const { text, truncated } = readRobotsBody(result.body ?? '');
    return { kind: 'full', text, truncated, cause, status, fetchedAt, expiresAt, failures: 0 };
  }
  if (status >= 300 && status < 500 && status !== 429) {
    return { kind: 'allow-all', text: '', truncated: false, cause, status, fetchedAt, expiresAt, failures: 0 };
  }
  return unreachable(cause, fetchedAt, previous, result);
}

/** Parsed rules per RobotsRules object, so a page check does not re-parse the text. */
const parsedCache = new WeakMap<RobotsRules, ParsedRobots>();

function parsed(rules: RobotsRules): ParsedRobots {
  let p = parsedCache.get(rules);
  if (!p) {
    p = parseRobots(rules.text);
    parsedCache.set(rules, p);
  }
  return p;
}

/**
 * Whether `productToken` may fetch `url` (an absolute URL of the origin the rules came from, or a
 * path): what the crawler asks. `productToken` may be a whole User-Agent value; only its product
 * token counts. /robots.txt itself is always allowed (RFC 9309 §2.2.2: "implicitly allowed"),
 * whatever its rules say. A string that is not a URL at all is disallowed.
 */
export function checkRobots(rules: RobotsRules, url: string, productTokenOrAgent: string): RobotsDecision {
  if (urlPathForRobots(url) === '/robots.txt') {
    return { allowed: true, reason: '/robots.txt is always allowed' };
  }
  return matchRobots(rules, url, productTokenOrAgent);
}

/**
 * What the rules alone say about `url`, without the implicit allow of /robots.txt: the answer
 * Google's matcher and its conformance suite give. The crawler asks checkRobots.
 */
export function matchRobots(rules: RobotsRules, url: string, productTokenOrAgent: string): RobotsDecision {
  const path = urlPathForRobots(url);
  if (path === undefined) return { allowed: false, reason: 'not a URL' };
  if (rules.kind === 'allow-all') return { allowed: true, reason: `robots.txt unavailable (${rules.cause}): all allowed` };
  if (rules.kind === 'disallow-all') {
    return { allowed: false, reason: `robots.txt unreachable (${rules.cause}): all disallowed until it answers` };
  }
  const rule = decidingRule(groupsFor(parsed(rules), productToken(productTokenOrAgent)), path);
  if (!rule) return { allowed: true, reason: 'no rule matched' };
  return {
    allowed: rule.directive === 'allow',
    rule: { line: rule.line, directive: rule.directive, pattern: rule.pattern },
    reason: `${rule.directive}: ${rule.pattern} at line ${rule.line}`,
  };
}

/**
 * The Crawl-delay in seconds of the group that applies to the token (the largest, when several
 * groups are merged), or undefined. The scheduler applies its own ceiling.
 */
export function crawlDelay(rules: RobotsRules, productTokenOrAgent: string): number | undefined {
  if (rules.kind !== 'full') return undefined;
  const delays = groupsFor(parsed(rules), productToken(productTokenOrAgent))
    .map((g) => g.crawlDelay)
    .filter((d): d is number => d !== undefined);
  return delays.length > 0 ? Math.max(...delays) : undefined;
}

/** The sitemaps the robots.txt names (any group or none). */
export function robotsSitemaps(rules: RobotsRules): string[] {
  return rules.kind === 'full' ? [...parsed(rules).sitemaps] : [];
}

/**
 * The rules for a token as plain path prefixes that are disallowed, when that is all they say
 * (MOMspider kept robots restrictions as Avoid prefixes). Undefined when a prefix list would
 * change the answer: an Allow rule, a `*` or `$` pattern, a Crawl-delay, or an unreachable file.
 */
export function robotsAsPrefixes(rules: RobotsRules, productTokenOrAgent: string): string[] | undefined {
  if (rules.kind === 'allow-all') return [];
  if (rules.kind === 'disallow-all' || rules.truncated) return undefined;
  const groups = groupsFor(parsed(rules), productToken(productTokenOrAgent));
  const out: string[] = [];
  for (const g of groups) {
    if (g.crawlDelay !== undefined) return undefined;
    for (const r of g.rules) {
      if (r.match === '') continue;
      if (r.directive === 'allow' || /[*$]/.test(r.match)) return undefined;
      out.push(r.match);
    }
  }
  return [...new Set(out)].sort();
}
