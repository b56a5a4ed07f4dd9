import { constraint, type Constraint } from './constraint.js';

/** The walk's depth limit: seeds are depth 0. */
export function maxDepth(n: number): Constraint {
  return constraint(`max-depth ${n}`, 'context', (c) => c.depth <= n);
}

export function httpOnly(): Constraint {
  return constraint('http-scheme', 'uri', (c) => c.url.protocol === 'http:' || c.url.protocol === 'https:');
}

export function maxUrlLength(n: number): Constraint {
  return constraint(`max-url-length ${n}`, 'uri', (c) => c.url.href.length <= n);
}

/**
 * Scope by host name: exact names, or `*.example.org` for a domain and its subdomains. A URI check,
 * so an out-of-scope link is dropped before any DNS lookup.
 */
export function hosts(patterns: readonly string[]): Constraint {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const p of patterns.map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (p.startsWith('*.')) suffixes.push(p.slice(1));
    else exact.add(p);
  }
  return constraint(`hosts ${patterns.join(',')}`, 'uri', (c) => {
    const h = c.url.hostname.toLowerCase();
    return exact.has(h) || suffixes.some((s) => h.endsWith(s) || h === s.slice(1));
  });
}

/** Stay on the host of the link's referrer (seeds, which have none, pass). */
export function sameHost(): Constraint {
  return constraint('same-host', 'uri', (c) => !c.referrer || new URL(c.referrer).hostname === c.url.hostname);
}

/** Skip URLs whose path ends in an extension that is never a page (images, archives, media). */
const BINARY_EXT = /\.(?:png|jpe?g|gif|webp|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|iso|mp[34]|m4[av]|ogg|wav|flac|avi|mov|mkv|webm|woff2?|ttf|eot|css|js|mjs|json|xml|rss|atom|apk|deb|rpm|epub|mobi)$/i;
export function notBinaryExtension(): Constraint {
  return constraint('not-binary-extension', 'uri', (c) => !looksBinaryPath(c.url));
}

/** Whether a URL's path names a file that is never a page, by its extension. */
export function looksBinaryPath(url: URL): boolean {
  return BINARY_EXT.test(url.pathname);
}
