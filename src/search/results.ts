import { parseDom } from '../html/dom.js';
import type { SearchResult } from './provider.js';

/**
 * Snippets come with the engines' highlighting (Wikipedia's <span class="searchmatch">, Brave's
 * <strong>) and HTML entities; a seed is stored as plain text.
 */
export function plainText(html: string | undefined): string {
  if (!html) return '';
  return parseDom(html).textContent.replace(/\s+/g, ' ').trim();
}

/**
 * Collects a provider's results across pages: keeps http(s) URLs only (an engine can answer
 * with other schemes, which no crawl can walk), drops a URL seen on an earlier page (engines
 * repeat results when pages shift under them), ranks them 1, 2, 3 … and stops at `count`.
 */
export class ResultList {
  readonly results: SearchResult[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly count: number) {}

  get full(): boolean {
    return this.results.length >= this.count;
  }

  /** Adds one result; returns whether it was new. */
  add(url: unknown, title: unknown, snippet: string): boolean {
    if (this.full || typeof url !== 'string') return false;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    const href = parsed.href;
    if (this.seen.has(href)) return false;
    this.seen.add(href);
    this.results.push({
      url: href,
      title: typeof title === 'string' ? plainText(title) : '',
      snippet,
      rank: this.results.length + 1,
    });
    return true;
  }
}

/** A plain object, to read fields off a parsed JSON answer without trusting its shape. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
