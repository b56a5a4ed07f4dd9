import { parse } from 'parse5';
import { normalizeUrl } from '../web/url.js';

/**
 * The archiver's remapper (W4 paper, section 5C): the references of an archived HTML page made to
 * work from disk. Links to archived resources become relative paths to their files, other links
 * absolute URLs (so they still reach the web), and `<base>` is taken out once every reference has
 * been resolved against it. Only the attribute values change: the rest of the page is kept byte
 * for byte, so an XHTML page stays well-formed and a page's own markup is never re-serialised.
 */

export type RefKind = 'page' | 'requisite';

/** A reference found in a page: its absolute URL (no fragment) and whether a page needs it to display. */
export interface Ref {
  url: string;
  kind: RefKind;
}

/** (element, attribute) pairs that hold a URL, and what the URL is to the page. */
const URL_ATTRS: Record<string, Record<string, RefKind>> = {
  a: { href: 'page' },
  area: { href: 'page' },
  iframe: { src: 'page' },
  frame: { src: 'page' },
  link: { href: 'page' },
  img: { src: 'requisite', srcset: 'requisite' },
  source: { src: 'requisite', srcset: 'requisite' },
  script: { src: 'requisite' },
  input: { src: 'requisite' },
  video: { src: 'requisite', poster: 'requisite' },
  audio: { src: 'requisite' },
  track: { src: 'requisite' },
  embed: { src: 'requisite' },
  object: { data: 'requisite' },
};

/** `<link rel>` values whose target the page needs to display (the rest, like canonical or next, are pages). */
const REQUISITE_RELS = /\b(?:stylesheet|icon|apple-touch-icon|preload|modulepreload|manifest)\b/i;

interface Occurrence {
  kind: RefKind;
  name: string;
  value: string;
  start: number;
  end: number;
}

interface Scan {
  base: URL;
  occurrences: Occurrence[];
  /** Where `<base>` elements stand in the source, to be taken out. */
  bases: { start: number; end: number }[];
}

interface P5Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5Node[];
  content?: P5Node;
  sourceCodeLocation?: { startOffset: number; endOffset: number; attrs?: Record<string, { startOffset: number; endOffset: number }> } | null;
}

function scan(html: string, pageUrl: string): Scan {
  const doc = parse(html, { sourceCodeLocationInfo: true }) as unknown as P5Node;
  const occurrences: Occurrence[] = [];
  const bases: Scan['bases'] = [];
  let base: URL | undefined;
  const visit = (node: P5Node): void => {
    const tag = node.tagName;
    const loc = node.sourceCodeLocation;
    if (tag && loc) {
      const attrs = node.attrs ?? [];
      if (tag === 'base') {
        const href = attrs.find((a) => a.name === 'href')?.value;
        if (href !== undefined && !base) base = httpUrl(href, pageUrl);
        bases.push({ start: loc.startOffset, end: loc.endOffset });
      }
      const wanted = URL_ATTRS[tag];
      if (wanted) {
        const rel = attrs.find((a) => a.name === 'rel')?.value ?? '';
        for (const a of attrs) {
          let kind = wanted[a.name];
          const at = loc.attrs?.[a.name];
          if (!kind || !at) continue;
          if (tag === 'link' && REQUISITE_RELS.test(rel)) kind = 'requisite';
          occurrences.push({ kind, name: a.name, value: a.value, start: at.startOffset, end: at.endOffset });
        }
      }
    }
    for (const c of node.childNodes ?? []) visit(c);
    if (node.content) visit(node.content);
  };
  visit(doc);
  return { base: base ?? new URL(pageUrl), occurrences, bases };
}

/** The page's references as the archiver follows them: absolute http(s) URLs, once each, in page order. */
export function pageRefs(html: string, pageUrl: string): Ref[] {
  const { base, occurrences } = scan(html, pageUrl);
  const seen = new Map<string, Ref>();
  for (const o of occurrences) {
    for (const raw of o.name === 'srcset' ? srcsetUrls(o.value) : [o.value]) {
      const url = absolute(raw, base);
      if (!url) continue;
      const known = seen.get(url.key);
      if (!known) seen.set(url.key, { url: url.key, kind: o.kind });
      else if (o.kind === 'requisite') known.kind = 'requisite';
    }
  }
  return [...seen.values()];
}

/**
 * The page with its references remapped. `local(url)` gives the relative href of an archived
 * URL's file from this page's file, or undefined when the URL is not archived.
 */
export function remapHtml(html: string, pageUrl: string, local: (url: string) => string | undefined): string {
  const { base, occurrences, bases } = scan(html, pageUrl);
  const edits: { start: number; end: number; text: string }[] = bases.map((b) => ({ ...b, text: '' }));
  const map = (raw: string): string => {
    // A reference within the page stays one: the copy has the same fragments.
    if (raw.trim().startsWith('#')) return raw;
    const url = absolute(raw, base);
    if (!url) return raw;
    const href = local(url.key);
    return href === undefined ? url.full : `${href}${url.fragment}`;
  };
  for (const o of occurrences) {
    const value = o.name === 'srcset' ? remapSrcset(o.value, map) : map(o.value);
    if (value !== o.value) edits.push({ start: o.start, end: o.end, text: `${o.name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"` });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = html;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** An http(s) reference resolved: `key` as the frontier spells it (no fragment), `full` with the fragment. */
function absolute(raw: string, base: URL): { key: string; full: string; fragment: string } | undefined {
  const u = httpUrl(raw.trim(), base.href);
  if (!u) return undefined;
  const fragment = u.hash;
  u.hash = '';
  const n = normalizeUrl(u.href);
  return n.ok ? { key: n.url, full: u.href + fragment, fragment } : undefined;
}

function httpUrl(raw: string, base: string): URL | undefined {
  try {
    const u = new URL(raw, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** The URLs of a srcset: comma-separated candidates, each a URL and an optional descriptor. */
function srcsetUrls(srcset: string): string[] {
  return srcset.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

function remapSrcset(srcset: string, map: (raw: string) => string): string {
  return srcset
    .split(',')
    .map((c) => {
      const [url, ...descriptor] = c.trim().split(/\s+/);
      return url ? [map(url), ...descriptor].join(' ') : c;
    })
    .join(', ');
}
