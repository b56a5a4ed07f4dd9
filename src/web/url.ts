import { FETCH_DEFAULTS } from './defaults.js';

/**
 * URL normalization: one spelling per resource, so the frontier, the robots cache and the
 * politeness slots all agree on what "the same URL" and "the same host" mean.
 */

/** Longer URLs are refused: real pages rarely exceed it, crawler traps and session junk often do. */
export const DEFAULT_MAX_URL_LENGTH = FETCH_DEFAULTS.maxUrlLength;

export type UrlFailure = 'bad-url' | 'bad-scheme' | 'too-long';

export type NormalizedUrl =
  /** `parsed` is `url` parsed, for callers that read its parts: theirs to read, not to change. */
  | { ok: true; url: string; parsed: URL }
  | { ok: false; reason: UrlFailure; detail: string };

export interface NormalizeOptions {
  maxLength?: number;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Percent-encoding in one canonical form (RFC 3986 6.2.2): hex digits upper case, and octets
 * that encode unreserved characters decoded, because `%7E` and `~` name the same resource.
 */
function normalizePercent(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * Resolves `raw` against `base` and returns the canonical string: WHATWG parsing (host lower
 * case and punycoded, default port dropped, dot segments removed, `/` for an empty path), no
 * user name or password, no fragment, no bare `?`, no trailing dot on the host. Query order is
 * kept: servers may care. A user name and password (`http://u:pw@host/`) name no other resource
 * and are never sent (RFC 9110 4.2.4 deprecates them in http URIs): kept, they would be printed,
 * stored, and sent on as the next page's Referer.
 */
export function normalizeUrl(raw: string, base?: string, opts: NormalizeOptions = {}): NormalizedUrl {
  const max = opts.maxLength ?? DEFAULT_MAX_URL_LENGTH;
  // Refuse absurd input before the parser spends time on it.
  if (raw.length > max * 4) return { ok: false, reason: 'too-long', detail: `${raw.length} characters, cap ${max}` };
  let u: URL;
  try {
    u = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
  } catch {
    return { ok: false, reason: 'bad-url', detail: `cannot parse ${JSON.stringify(raw.slice(0, 200))}` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { ok: false, reason: 'bad-scheme', detail: `scheme ${u.protocol.replace(/:$/, '')} is not http or https` };
  }
  // Most links are in the one spelling already, and each setter below costs the parse again and
  // more (1.8 µs a link with them, 0.4 without): with no fragment, no escape, no bare `?` and no
  // trailing dot, they would change nothing.
  if (!/[#%@]|\?$/.test(u.href) && !u.hostname.endsWith('.')) return within(u, max);
  u.username = '';
  u.password = '';
  u.hash = '';
  if (u.hostname.endsWith('.')) {
    // http(s) cannot have an empty host: setting one is ignored, so "http://./" must be caught here.
    const bare = u.hostname.replace(/\.+$/, '');
    if (!bare) return { ok: false, reason: 'bad-url', detail: 'no host name' };
    u.hostname = bare;
  }
  u.pathname = normalizePercent(u.pathname);
  // An empty query ("p?") reads as "" but stays in href until it is set.
  u.search = u.search === '' ? '' : normalizePercent(u.search);
  return within(u, max);
}

function within(u: URL, max: number): NormalizedUrl {
  const href = u.href;
  if (href.length > max) return { ok: false, reason: 'too-long', detail: `${href.length} characters, cap ${max}` };
  return { ok: true, url: href, parsed: u };
}

/** The host name a politeness slot is keyed by: lower case, no port, IPv6 without brackets. */
export function hostOf(url: string | URL): string {
  const h = (typeof url === 'string' ? new URL(url) : url).hostname;
  return h.startsWith('[') ? h.slice(1, -1) : h;
}

/** `scheme://host[:port]`, the unit robots.txt applies to (RFC 9309 2.3). */
export function originOf(url: string): string {
  return new URL(url).origin;
}
