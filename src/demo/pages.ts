import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import { listHosts } from './files.js';
import { defaultSitesDir } from './paths.js';
import { parseRobots, type RobotsRules } from './robots.js';

/** One HTML page of the demo web, with the facts a test or the search index needs. */
export interface DemoPage {
  host: string;
  /** The page's URL path as sites link to it: `/stories/` for stories/index.html. */
  path: string;
  /** `http://<host><path>`, without the server's port. */
  url: string;
  file: string;
  /** The <h1> (else <title>); made unique across the web by appending ` (<host>)`. */
  title: string;
  /** The body's text, whitespace folded. */
  text: string;
  /** Bytes of the HTML file. */
  size: number;
  wordcount: number;
  /** Holds an <article>: the page's narrative paragraphs are the <p>s inside it. */
  narrative: boolean;
  /** `<meta name="robots">` says noindex / nofollow. */
  noindex: boolean;
  nofollow: boolean;
  /** The host's robots.txt lets `*` fetch it. */
  robotsAllowed: boolean;
  /**
   * A polite crawler starting at every host's home page reaches it: by <a href> links that are
   * not rel=nofollow, from pages without meta nofollow, never through a robots-disallowed page.
   */
  discoverable: boolean;
  /** Absolute URLs of its <a href> links, in document order (outside hosts included). */
  links: string[];
  /** The subset of `links` a polite crawler may follow from this page. */
  followLinks: string[];
}

/** The search index takes what a polite engine would: discoverable, allowed, not noindex. */
export function isIndexed(p: DemoPage): boolean {
  return p.discoverable && p.robotsAllowed && !p.noindex;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/** Every HTML page under `root` (default demo/sites), sorted by host then path. */
export function loadDemoPages(root: string = defaultSitesDir()): DemoPage[] {
  const hosts = listHosts(root);
  const robots = new Map<string, RobotsRules>(hosts.map((h) => [h, readRobots(join(root, h))]));
  const pages: DemoPage[] = [];
  for (const host of hosts) {
    for (const file of htmlFiles(join(root, host))) {
      const rel = '/' + relative(join(root, host), file).split(sep).join('/');
      const path = rel.endsWith('/index.html') ? rel.slice(0, -'index.html'.length) : rel;
      pages.push(readPage(host, path, file, robots.get(host)!));
    }
  }
  pages.sort((a, b) => (a.host === b.host ? cmp(a.path, b.path) : cmp(a.host, b.host)));
  uniqueTitles(pages);
  markDiscoverable(pages);
  return pages;
}

function readPage(host: string, path: string, file: string, robots: RobotsRules): DemoPage {
  const html = readFileSync(file, 'utf8');
  const doc = parse(html);
  const url = `http://${host}${path}`;
  const robotsMeta = doc
    .querySelectorAll('meta')
    .filter((m) => m.getAttribute('name')?.toLowerCase() === 'robots')
    .map((m) => (m.getAttribute('content') ?? '').toLowerCase())
    .join(',');
  const nofollow = /\b(nofollow|none)\b/.test(robotsMeta);
  const links: string[] = [];
  const followLinks: string[] = [];
  for (const a of doc.querySelectorAll('a[href]')) {
    let abs: string;
    try {
      abs = new URL(a.getAttribute('href')!, url).href;
    } catch {
      continue;
    }
    links.push(abs);
    const rel = (a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (!nofollow && !rel.includes('nofollow')) followLinks.push(abs);
  }
  const body = doc.querySelector('body') ?? doc;
  for (const el of body.querySelectorAll('script, style')) el.remove();
  const text = fold(body.structuredText);
  return {
    host,
    path,
    url,
    file,
    title: fold(textOf(doc.querySelector('h1')) || textOf(doc.querySelector('title')) || path),
    text,
    size: Buffer.byteLength(html),
    wordcount: countWords(text),
    narrative: doc.querySelector('article') !== null,
    noindex: /\b(noindex|none)\b/.test(robotsMeta),
    nofollow,
    robotsAllowed: robots.allows(path),
    discoverable: false,
    links,
    followLinks,
  };
}

function markDiscoverable(pages: DemoPage[]): void {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const queue = pages.filter((p) => p.path === '/' && p.robotsAllowed);
  for (const p of queue) p.discoverable = true;
  while (queue.length) {
    const page = queue.shift()!;
    for (const link of page.followLinks) {
      const target = byUrl.get(pageUrl(link));
      if (!target || target.discoverable || !target.robotsAllowed) continue;
      target.discoverable = true;
      queue.push(target);
    }
  }
}

/** A link's page key: http only, no port, query or fragment; a folder's index.html as the folder. */
function pageUrl(link: string): string {
  try {
    const u = new URL(link);
    if (u.protocol !== 'http:') return '';
    const path = u.pathname.endsWith('/index.html') ? u.pathname.slice(0, -'index.html'.length) : u.pathname;
    return `http://${u.hostname}${decodeURI(path)}`;
  } catch {
    return '';
  }
}

function uniqueTitles(pages: DemoPage[]): void {
  const counts = new Map<string, number>();
  for (const p of pages) counts.set(p.title, (counts.get(p.title) ?? 0) + 1);
  for (const p of pages) if (counts.get(p.title)! > 1) p.title = `${p.title} (${p.host})`;
}

function readRobots(siteDir: string): RobotsRules {
  try {
    return parseRobots(readFileSync(join(siteDir, 'robots.txt'), 'utf8'));
  } catch {
    return parseRobots('');
  }
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return htmlFiles(p);
      return /\.html?$/i.test(name) ? [p] : [];
    });
}

function textOf(el: HTMLElement | null): string {
  return el ? el.text : '';
}

function fold(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
