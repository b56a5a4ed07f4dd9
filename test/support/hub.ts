import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Link, Store } from '../../src/store/store.js';
import { normalizeUrl } from '../../src/web/url.js';
import { sharedPath } from './shared.js';
import { SITES, type TestWeb } from './testweb.js';

/**
 * The corpus as one small web for harvest tests: a hub page that links the five sites' entry
 * pages (and any extra URLs a test wants walked from the start), and the list of every URL the
 * corpus could answer, so a test can ask the store and the test web about each one.
 */

export const HUB_HOST = 'hub.test';

/** Registers a hub page at hub.test PATH linking the five sites and `extra` URLs; returns its URL. */
export function hubPage(web: TestWeb, opts: { path?: string; extra?: string[] } = {}): string {
  const path = opts.path ?? '/sites.html';
  const links = [...Object.entries(SITES).map(([host, s]) => web.url(host, s.entry)), ...(opts.extra ?? [])];
  web.page(
    HUB_HOST,
    path,
    '<!DOCTYPE html><html><head><title>Sites</title></head><body><h1>Sites</h1><ul>' +
      links.map((u) => `<li><a href="${u}">${u}</a></li>`).join('') +
      '</ul></body></html>',
  );
  return web.url(HUB_HOST, path);
}

/** One URL the corpus serves: the host, the request path, and the URL as the frontier spells it. */
export interface CorpusUrl {
  host: string;
  path: string;
  url: string;
  /** The file behind it. */
  file: string;
}

/** Every file of every corpus site as a URL of the test web (robots.txt included). */
export function corpusUrls(web: TestWeb): CorpusUrl[] {
  const out: CorpusUrl[] = [];
  for (const [host, site] of Object.entries(SITES)) {
    const root = sharedPath('corpus', site.dir);
    for (const file of walkFiles(root)) {
      const path = '/' + relative(root, file).split('\\').join('/');
      const n = normalizeUrl(web.url(host, path));
      if (!n.ok) throw new Error(`corpus path ${path} is not a URL: ${n.detail}`);
      out.push({ host, path: new URL(n.url).pathname, url: n.url, file });
    }
  }
  return out;
}

function walkFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

/** The links the store holds for these URLs (those it never stored are left out). */
export async function storedLinks(store: Store, urls: readonly string[]): Promise<Map<string, Link>> {
  const out = new Map<string, Link>();
  for (const url of urls) {
    const l = await store.linkByUrl(url);
    if (l) out.set(url, l);
  }
  return out;
}

/**
 * The first paragraph of a corpus page written as plain text (no inline markup, no entity, no
 * word joiner), whitespace collapsed: a sentence a harvest of that page must keep as a node.
 */
export function plainParagraph(file: string, minWords = 20): string {
  const html = readFileSync(file, 'utf8');
  for (const m of html.matchAll(/<p>([^<&\u2060]*)<\/p>/g)) {
    const text = m[1]!.replace(/\s+/g, ' ').trim();
    if (text.split(' ').length >= minWords) return text;
  }
  throw new Error(`no plain paragraph of ${minWords}+ words in ${file}`);
}

/** The first absolute link of a corpus page to a host outside the test web (a real site). */
export function outsideLink(file: string): string {
  const html = readFileSync(file, 'utf8');
  for (const m of html.matchAll(/href=["']?(https?:\/\/[^"' >#]+)/g)) {
    const n = normalizeUrl(m[1]!);
    if (n.ok && !new URL(n.url).hostname.endsWith('.test')) return n.url;
  }
  throw new Error(`no link to a real site in ${file}`);
}
