import { parse } from 'parse5';
import { capNesting, HTML5_RAW_TEXT } from '../html/nesting.js';
import { cutAtElements, MAX_ELEMENTS } from '../html/limits.js';
import { normalizeUrl } from '../web/url.js';

/**
 * The references of an HTML page: every attribute that holds a URL, where it stands in the
 * source (so that a remapper can change it and nothing else), what the URL is to the page (a page
 * to walk, or a requisite the page needs to display), and `<base>`, resolved as a browser does.
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

export interface Occurrence {
  kind: RefKind;
  tag: string;
  name: string;
  value: string;
  start: number;
  end: number;
}

export interface Scan {
  base: URL;
  occurrences: Occurrence[];
  /** Where `<base>` elements stand in the source, to be taken out. */
  bases: { start: number; end: number }[];
  /** The page was read only up to its MAX_ELEMENTS-th element (html/dom.ts): references past it are not here. */
  cut: boolean;
}

interface P5Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5Node[];
  content?: P5Node;
  sourceCodeLocation?: { startOffset: number; endOffset: number; attrs?: Record<string, { startOffset: number; endOffset: number }> } | null;
}

export function scanReferences(html: string, pageUrl: string): Scan {
  // parse5 reads the page with its nesting bounded; the places it reports are mapped back to the page
  // as given, of which a page cut at MAX_ELEMENTS is the start.
  const cut = cutAtElements(html, MAX_ELEMENTS);
  const capped = capNesting(cut ?? html, { rawText: HTML5_RAW_TEXT });
  const doc = parse(capped.html, { sourceCodeLocationInfo: true }) as unknown as P5Node;
  const occurrences: Occurrence[] = [];
  const bases: Scan['bases'] = [];
  let base: URL | undefined;
  // Document order without recursion: a template's content comes after its children (it has none in parse5's tree).
  const stack: P5Node[] = [doc];
  while (stack.length) {
    const node = stack.pop()!;
    const tag = node.tagName;
    const loc = node.sourceCodeLocation;
    if (tag && loc) {
      const attrs = node.attrs ?? [];
      if (tag === 'base') {
        const href = attrs.find((a) => a.name === 'href')?.value;
        if (href !== undefined && !base) base = httpUrl(href, pageUrl);
        bases.push(capped.source(loc.startOffset, loc.endOffset));
      }
      const wanted = URL_ATTRS[tag];
      if (wanted) {
        const rel = attrs.find((a) => a.name === 'rel')?.value ?? '';
        for (const a of attrs) {
          let kind = wanted[a.name];
          const at = loc.attrs?.[a.name];
          if (!kind || !at) continue;
          if (tag === 'link' && REQUISITE_RELS.test(rel)) kind = 'requisite';
          occurrences.push({ kind, tag, name: a.name, value: a.value, ...capped.source(at.startOffset, at.endOffset) });
        }
      }
    }
    if (node.content) stack.push(node.content);
    const kids = node.childNodes ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return { base: base ?? new URL(pageUrl), occurrences, bases, cut: cut !== undefined };
}

export type PageReference = Ref & { tag: string };

/** Every http(s) reference of a page, each occurrence, in page order, with the element that holds it (a map's multigraph). */
export function readReferences(html: string, pageUrl: string): { refs: PageReference[]; cut: boolean } {
  const { base, occurrences, cut } = scanReferences(html, pageUrl);
  const refs: PageReference[] = [];
  for (const o of occurrences) {
    for (const raw of o.name === 'srcset' ? srcsetUrls(o.value) : [o.value]) {
      const url = absolute(raw, base);
      if (url) refs.push({ url: url.key, kind: o.kind, tag: o.tag });
    }
  }
  return { refs, cut };
}

/** readReferences' references alone. */
export const references = (html: string, pageUrl: string): PageReference[] => readReferences(html, pageUrl).refs;

/** A page's references as the archiver follows them: absolute http(s) URLs, once each, in page order. */
export function uniqueRefs(refs: readonly PageReference[]): Ref[] {
  const seen = new Map<string, Ref>();
  for (const r of refs) {
    const known = seen.get(r.url);
    if (!known) seen.set(r.url, { url: r.url, kind: r.kind });
    else if (r.kind === 'requisite') known.kind = 'requisite';
  }
  return [...seen.values()];
}

/** An http(s) reference resolved: `key` as the frontier spells it (no fragment), `full` with the fragment. */
export function absolute(raw: string, base: URL): { key: string; full: string; fragment: string } | undefined {
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
export function srcsetUrls(srcset: string): string[] {
  return srcset.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

