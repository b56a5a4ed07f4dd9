/**
 * One spelling for paths and patterns, so that robots.txt rules and URLs compare octet by octet
 * (RFC 9309 §2.2.2): %-escapes of unreserved characters are decoded, every other escape is
 * upper-cased, and whatever is neither unreserved nor reserved (non-ASCII, space, `"`, `[`, `|`,
 * a bare `%`, …) is percent-encoded as UTF-8. The result is plain ASCII, so string length is the
 * octet count that "longest match" compares.
 *
 * Note: RFC 9309's own table maps `/foo/bar/%62%61%7A` to `/foo/bar/baz`; Google's robots_test.cc
 * expects the opposite (no decoding). We follow the RFC.
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Reserved characters (RFC 3986 gen-delims without `#`, and sub-delims) stay as written. */
const KEEP = /^[A-Za-z0-9\-._~:/?@!$&'()*+,;=]$/;
const HEX2 = /^[0-9A-Fa-f]{2}$/;

const encoder = new TextEncoder();

function escapeChar(ch: string): string {
  let out = '';
  for (const byte of encoder.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/**
 * The canonical form of a robots.txt pattern or of a URL's path+query. `*` and `$` are kept,
 * so a pattern keeps its wildcards. An apostrophe in the query is escaped, because WHATWG URL
 * parsing (what the fetcher sends) escapes it there; a rule must be spelled the same way.
 */
export function canonicalPath(s: string): string {
  let out = '';
  let inQuery = false;
  const chars = Array.from(s);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '%') {
      const hex = (chars[i + 1] ?? '') + (chars[i + 2] ?? '');
      if (HEX2.test(hex)) {
        const decoded = String.fromCharCode(parseInt(hex, 16));
        out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
        i += 2;
        continue;
      }
      out += '%25';
      continue;
    }
    if (ch === '?') inQuery = true;
    if (ch === "'" && inQuery) out += '%27';
    else out += KEEP.test(ch) ? ch : escapeChar(ch);
  }
  return out;
}

/** A placeholder origin: only the path and query of a URL matter to robots.txt. */
const BASE = 'http://robots.invalid/';

/**
 * The path+query of a URL in canonical form. Parsing with WHATWG URL first gives the path the
 * fetcher will actually request (dot segments resolved, fragment dropped). A bare path is read
 * against a placeholder origin, and the empty string is `/` (as Google's matcher treats it).
 * Returns undefined when the text is not a URL at all.
 */
export function urlPathForRobots(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url, BASE);
  } catch {
    return undefined;
  }
  const path = u.pathname.startsWith('/') ? u.pathname : `/${u.pathname}`;
  return canonicalPath(path + u.search);
}
