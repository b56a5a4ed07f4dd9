import { UserError } from '../errors.js';
import { INLINE_TAGS, isElement, parseDom, tagOf, TextNode, type Dom, type HTMLElement, type Node } from './dom.js';

export interface PageLink {
  /** Absolute http(s) URL without its fragment. */
  url: string;
  /** True when every occurrence of this URL on the page carries rel=nofollow. */
  nofollow: boolean;
  /** The element of its first occurrence: a, area, frame or iframe. */
  tag: string;
  /** Text of the link (an image's alt when it has none; area alt; frame title). */
  anchorText: string;
}

export interface PageRobots {
  /** `<meta name=robots content=noindex>` (or name=TOKEN, the crawler's product token): store nothing from this page. */
  noindex: boolean;
  /** `<meta name=robots content=nofollow>`: follow none of its links. */
  nofollow: boolean;
}

export interface PageLinks {
  /** The URL relative links resolve against: the first `<base href>`, else the page's URL. */
  base: string;
  links: PageLink[];
  robots: PageRobots;
  /** Where `<meta http-equiv=refresh content="N; url=…">` sends the reader, if anywhere. */
  refresh?: string;
}

/** Where the thesis's crawler finds links: href of anchors and image maps, src of frames. */
const LINK_ATTR: Record<string, string> = { a: 'href', area: 'href', frame: 'src', iframe: 'src' };

/**
 * The links a crawler may follow from a page, resolved the way a browser resolves them. Schemes
 * other than http and https (javascript:, mailto:, data:, tel:, ftp:, …) are dropped, as are
 * fragments, and each URL is listed once at its first occurrence.
 */
export function extractLinks(html: string | Dom, options: { url: string; robotsToken?: string }): PageLinks {
  const ourName = options.robotsToken?.toLowerCase();
  let pageUrl: URL;
  try {
    pageUrl = new URL(options.url);
  } catch {
    throw new UserError('not an absolute URL', { value: options.url, fix: 'give the full address, e.g. https://example.org/page.html' });
  }
  const root = typeof html === 'string' ? parseDom(html) : html;
  const elements = inOrder(root);

  let base = pageUrl;
  const baseEl = elements.find((e) => tagOf(e) === 'base' && e.hasAttribute('href'));
  if (baseEl) {
    const b = parseUrl(baseEl.getAttribute('href')!, pageUrl);
    // The HTML standard refuses data: and javascript: as a base and keeps the fallback.
    if (b && b.protocol !== 'data:' && b.protocol !== 'javascript:') base = b;
  }

  const robots: PageRobots = { noindex: false, nofollow: false };
  let refresh: string | undefined;
  const byUrl = new Map<string, PageLink>();
  for (const el of elements) {
    const tag = tagOf(el);
    if (tag === 'meta') {
      const name = el.getAttribute('name')?.trim().toLowerCase();
      if (name === 'robots' || (name !== undefined && name === ourName)) readRobots(el.getAttribute('content') ?? '', robots);
      const equiv = el.getAttribute('http-equiv')?.trim().toLowerCase();
      if (equiv === 'refresh' && refresh === undefined) {
        const target = refreshTarget(el.getAttribute('content') ?? '');
        if (target !== undefined) refresh = httpUrl(target, base);
      }
      continue;
    }
    const attr = LINK_ATTR[tag];
    if (!attr || !el.hasAttribute(attr)) continue;
    const raw = el.getAttribute(attr)!;
    // An empty src shows about:blank, not the page itself.
    if (attr === 'src' && raw.trim() === '') continue;
    const url = httpUrl(raw, base);
    if (url === undefined) continue;
    const nofollow = attr === 'href' && relTokens(el).has('nofollow');
    const anchorText = anchorTextOf(el, tag);
    const seen = byUrl.get(url);
    if (seen) {
      seen.nofollow &&= nofollow;
      if (!seen.anchorText) seen.anchorText = anchorText;
    } else {
      byUrl.set(url, { url, nofollow, tag, anchorText });
    }
  }
  const out: PageLinks = { base: base.href, links: [...byUrl.values()], robots };
  if (refresh !== undefined) out.refresh = refresh;
  return out;
}

/** Every element in document order, without recursion (pages can nest very deep). */
function inOrder(root: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    out.push(n);
    for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return out;
}

function parseUrl(raw: string, base: URL): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

function httpUrl(raw: string, base: URL): string | undefined {
  const u = parseUrl(raw, base);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) return undefined;
  u.hash = '';
  return u.href;
}

function relTokens(el: HTMLElement): Set<string> {
  return new Set((el.getAttribute('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/));
}

/** `noindex`, `nofollow` and `none` (both), comma- or space-separated, case-insensitive. */
function readRobots(content: string, robots: PageRobots): void {
  for (const token of content.toLowerCase().split(/[\s,]+/)) {
    if (token === 'noindex' || token === 'none') robots.noindex = true;
    if (token === 'nofollow' || token === 'none') robots.nofollow = true;
  }
}

/**
 * The URL of a refresh declaration, following the HTML standard's "shared declarative refresh
 * steps": a time, then `;` or `,`, then optionally `url=`, then the URL, possibly quoted.
 * Undefined when the declaration only reloads the page or is malformed.
 */
export function refreshTarget(content: string): string | undefined {
  const s = content;
  let i = 0;
  const ws = () => {
    while (i < s.length && /[\t\n\f\r ]/.test(s[i]!)) i++;
  };
  ws();
  const t0 = i;
  while (i < s.length && /\d/.test(s[i]!)) i++;
  if (i === t0 && s[i] !== '.') return undefined;
  while (i < s.length && /[\d.]/.test(s[i]!)) i++;
  if (i < s.length) {
    if (!/[;,\t\n\f\r ]/.test(s[i]!)) return undefined;
    ws();
    if (s[i] === ';' || s[i] === ',') i++;
    ws();
  }
  if (i >= s.length) return undefined;
  const rest = s.slice(i);
  const prefix = /^url[\t\n\f\r ]*=[\t\n\f\r ]*/i.exec(rest);
  let url = prefix ? rest.slice(prefix[0].length) : rest;
  // A value that starts with "u" but not "url=" is taken whole, quotes and all.
  const quotable = prefix !== null || !/^u/i.test(rest);
  const q = url[0];
  if (quotable && (q === '"' || q === "'")) {
    url = url.slice(1);
    const end = url.indexOf(q);
    if (end >= 0) url = url.slice(0, end);
  }
  url = url.trim();
  return url === '' ? undefined : url;
}

function anchorTextOf(el: HTMLElement, tag: string): string {
  if (tag === 'area') return clean(el.getAttribute('alt') ?? '');
  if (tag !== 'a') return clean(el.getAttribute('title') ?? '');
  const parts: string[] = [];
  const alts: string[] = [];
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof TextNode) parts.push(n.text);
    // A link inside a link is a link of its own, as a browser reads it: the outer one's text stops
    // there, and no text is read once for each link around it (a page of nested links was quadratic).
    else if (isElement(n) && (n === el || tagOf(n) !== 'a')) {
      if (tagOf(n) === 'img') alts.push(n.getAttribute('alt') ?? '');
      else if (!INLINE_TAGS.has(tagOf(n))) parts.push(' ');
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
    }
  }
  return clean(parts.join('')) || clean(alts.join(' '));
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
