import { canonicalPath } from './robots-encoding.js';

/**
 * robots.txt text → groups of rules (RFC 9309 §2.1–2.2). Pure.
 *
 * Why not robots-parser's parser: it reads the agent up to "/" rather than the product token
 * (`User-agent: Foo Bar` never matches `foo`), lets Sitemap and unknown lines close a group
 * (§2.2.4 says other records must not interfere), keeps a leading BOM as part of the first
 * directive, reads an empty Crawl-delay as 0, and normalises patterns with encodeURI, which escapes
 * `[`, `]`, `|`, `^` where the URL parser does not. Its matcher is private, so reaching it means
 * rewriting the text and round-tripping URLs through its origin check. Fixing all that left
 * nothing of the library in use, so this file and robots-match.ts replace it. A differential test
 * (robots-differential.test.ts) holds them to the library's answers where it is right.
 */

export type Directive = 'allow' | 'disallow';

export interface RobotsRule {
  /** 1-based line in the robots.txt text, for `anwc why` and `anwc robots`. */
  line: number;
  directive: Directive;
  /** The pattern as written (comment and surrounding blanks removed). */
  pattern: string;
  /** The pattern in canonical form (robots-encoding.ts), what is matched. */
  match: string;
}

export interface RobotsGroup {
  /** Lower-cased product tokens, or `*`. */
  agents: string[];
  rules: RobotsRule[];
  /** Seconds, from the first valid Crawl-delay line of the group. */
  crawlDelay?: number;
}

export interface ParsedRobots {
  groups: RobotsGroup[];
  sitemaps: string[];
}

/**
 * Lines longer than this are cut and the kept prefix still counts (Google's limit, 8 × the
 * longest URL browsers accept); it bounds the matcher's work per rule.
 */
export const ROBOTS_MAX_LINE = 8 * 2083;

/** Directive names, with the misspellings Google accepts (RFC 9309 §2.2.4 allows leniency). */
const KEYS = new Map<string, 'user-agent' | Directive | 'crawl-delay' | 'sitemap'>(Object.entries({
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'crawl-delay': 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
} as const));

/** Only ASCII blanks: String.trim would also eat a BOM in the middle of the file, which must stay garbage. */
const trimBlanks = (s: string): string => s.replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '');

/**
 * The product token at the start of a user-agent value (RFC 9309 §2.2.1: letters, `_`, `-`),
 * lower-cased. `anwc/0.1 (+https://…)` → `anwc`, `Foo Bar` → `foo`. Empty when none.
 */
export function productToken(userAgent: string): string {
  const m = /^[A-Za-z_-]+/.exec(trimBlanks(userAgent));
  return m ? m[0].toLowerCase() : '';
}

/** Splits `key: value`; a missing colon is accepted when the line is exactly two words. */
function keyValue(line: string): [string, string] | undefined {
  const colon = line.indexOf(':');
  if (colon >= 0) return [trimBlanks(line.slice(0, colon)), trimBlanks(line.slice(colon + 1))];
  const words = line.split(/[ \t]+/);
  return words.length === 2 ? [words[0]!, words[1]!] : undefined;
}

export function parseRobots(text: string): ParsedRobots {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let group: RobotsGroup | undefined;
  // A user-agent line after a group member starts a new group; consecutive ones share a group.
  // Crawl-delay counts as a member, as in every crawler that honours it: `User-agent: *` with
  // only a Crawl-delay, then a blank line and `User-agent: anwc`, is two groups, not one.
  let sawMember = false;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let raw = lines[i]!.slice(0, ROBOTS_MAX_LINE);
    const hash = raw.indexOf('#');
    if (hash >= 0) raw = raw.slice(0, hash);
    const kv = keyValue(trimBlanks(raw));
    if (!kv) continue;
    const key = KEYS.get(kv[0].toLowerCase());
    const value = kv[1];
    if (key === 'user-agent') {
      if (!group || sawMember) {
        group = { agents: [], rules: [] };
        groups.push(group);
        sawMember = false;
      }
      // Google's reading: `*` then a blank is still the global agent.
      const agent = /^\*(?:[ \t]|$)/.test(value) ? '*' : productToken(value);
      if (agent) group.agents.push(agent);
    } else if (key === 'allow' || key === 'disallow') {
      if (!group) continue; // rules before any user-agent line belong to nobody
      sawMember = true;
      group.rules.push({ line: i + 1, directive: key, pattern: value, match: canonicalPath(value) });
    } else if (key === 'crawl-delay') {
      if (!group) continue;
      sawMember = true;
      const seconds = Number(value);
      if (value !== '' && Number.isFinite(seconds) && seconds >= 0) group.crawlDelay ??= seconds;
    } else if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    }
  }
  return { groups, sitemaps };
}
