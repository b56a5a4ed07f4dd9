import { stem } from '../text/stem.js';
import { isIndexed, type DemoPage } from './pages.js';

/*
 * A search engine over the demo web that answers like MediaWiki's search API
 * (action=query&list=search, https://www.mediawiki.org/wiki/API:Search), so the wikipedia seed
 * provider can be pointed at it offline. Every query word must occur in a page (AND), words are
 * compared by Porter stem ("storms" finds "storm"), and pages rank by how often the words occur.
 */

/** Every result's timestamp: the demo web has one edition, and runs must be reproducible. */
export const DEMO_TIMESTAMP = '2026-03-01T00:00:00Z';

/** MediaWiki's default and its ceiling for ordinary clients. */
export const DEFAULT_SRLIMIT = 10;
export const MAX_SRLIMIT = 500;

export interface SearchHit {
  ns: 0;
  title: string;
  pageid: number;
  size: number;
  wordcount: number;
  snippet: string;
  timestamp: string;
}

export interface SearchResponse {
  batchcomplete: true;
  continue?: { sroffset: number; continue: '-||' };
  query: { searchinfo: { totalhits: number }; search: SearchHit[] };
}

export interface ApiError {
  error: { code: string; info: string; docref: string };
}

interface Entry {
  page: DemoPage;
  pageid: number;
  /** Stem → occurrences. */
  counts: Map<string, number>;
  /** Word tokens with their offsets in page.text, for snippets. */
  tokens: { start: number; end: number; stem: string }[];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

function tokens(text: string): { start: number; end: number; stem: string }[] {
  return Array.from(text.matchAll(WORD), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    stem: stem(m[0].replace(/’/g, "'")),
  }));
}

/** The demo search engine: built once from the pages, then queried. */
export class DemoSearchIndex {
  private readonly entries: Entry[];
  private readonly byTitle = new Map<string, DemoPage>();

  /** Indexes the pages isIndexed() admits; pageids number all pages, so they never shift. */
  constructor(pages: readonly DemoPage[]) {
    this.entries = [];
    pages.forEach((page, i) => {
      if (!isIndexed(page)) return;
      const toks = tokens(page.text);
      const counts = new Map<string, number>();
      for (const t of toks) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1);
      this.entries.push({ page, pageid: i + 1, counts, tokens: toks });
      this.byTitle.set(page.title, page);
    });
  }

  /** The page a `/wiki/<Title>` names: underscores are spaces; the first letter is case-blind. */
  pageForTitle(title: string): DemoPage | undefined {
    const t = title.replace(/_/g, ' ').trim();
    const exact = this.byTitle.get(t) ?? this.byTitle.get(t.charAt(0).toUpperCase() + t.slice(1));
    if (exact) return exact;
    const lower = t.toLowerCase();
    for (const [k, p] of this.byTitle) if (k.toLowerCase() === lower) return p;
    return undefined;
  }

  get size(): number {
    return this.entries.length;
  }

  search(srsearch: string, limit = DEFAULT_SRLIMIT, offset = 0): SearchResponse {
    const terms = [...new Set(tokens(srsearch).map((t) => t.stem))];
    const ranked = terms.length === 0 ? [] : this.rank(terms);
    const page = ranked.slice(offset, offset + limit);
    const res: SearchResponse = {
      batchcomplete: true,
      query: {
        searchinfo: { totalhits: ranked.length },
        search: page.map(({ entry }) => ({
          ns: 0,
          title: entry.page.title,
          pageid: entry.pageid,
          size: entry.page.size,
          wordcount: entry.page.wordcount,
          snippet: snippet(entry, new Set(terms)),
          timestamp: DEMO_TIMESTAMP,
        })),
      },
    };
    if (offset + limit < ranked.length) {
      return { batchcomplete: true, continue: { sroffset: offset + limit, continue: '-||' }, query: res.query };
    }
    return res;
  }

  private rank(terms: string[]): { entry: Entry; score: number }[] {
    const hits: { entry: Entry; score: number }[] = [];
    for (const entry of this.entries) {
      let score = 0;
      let all = true;
      for (const t of terms) {
        const n = entry.counts.get(t) ?? 0;
        if (n === 0) {
          all = false;
          break;
        }
        score += n;
      }
      if (all) hits.push({ entry, score });
    }
    return hits.sort((a, b) => b.score - a.score || a.entry.pageid - b.entry.pageid);
  }
}

/**
 * About 30 words of the page around the first match, HTML-escaped, each matching word wrapped in
 * `<span class="searchmatch">` as MediaWiki does.
 */
function snippet(entry: Entry, terms: ReadonlySet<string>): string {
  const { tokens: toks, page } = entry;
  const first = Math.max(0, toks.findIndex((t) => terms.has(t.stem)));
  const from = Math.max(0, first - 8);
  const to = Math.min(toks.length - 1, from + 29);
  if (toks.length === 0) return '';
  let out = '';
  let at = toks[from]!.start;
  for (let i = from; i <= to; i++) {
    const t = toks[i]!;
    out += escapeHtml(page.text.slice(at, t.start));
    const word = escapeHtml(page.text.slice(t.start, t.end));
    out += terms.has(t.stem) ? `<span class="searchmatch">${word}</span>` : word;
    at = t.end;
  }
  return out;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** MediaWiki's error shape (HTTP 200 all the same, as the real API answers). */
export function apiError(code: string, info: string): ApiError {
  return { error: { code, info, docref: 'See /w/api.php for API usage (demo search engine).' } };
}

/**
 * Answers one /w/api.php query string. Accepts what the wikipedia provider sends:
 * action=query, list=search, srsearch, srlimit (1-500 or "max"), sroffset, format=json,
 * formatversion; other parameters (srprop, srinfo, srwhat, utf8, origin) are ignored.
 */
export function answerApi(index: DemoSearchIndex, params: URLSearchParams): SearchResponse | ApiError {
  const action = params.get('action');
  if (action === null) return apiError('missingparam', 'The "action" parameter must be set.');
  if (action !== 'query') return apiError('badvalue', `Unrecognized value for parameter "action": ${action}.`);
  const list = params.get('list');
  if (list !== 'search') return apiError('badvalue', `Unrecognized value for parameter "list": ${list ?? ''}.`);
  const format = params.get('format') ?? 'json';
  if (format !== 'json') return apiError('badvalue', `Unrecognized value for parameter "format": ${format}.`);
  const srsearch = params.get('srsearch');
  if (srsearch === null || srsearch.trim() === '') {
    return apiError('missingparam', 'The "srsearch" parameter must be set.');
  }
  const limitRaw = params.get('srlimit') ?? String(DEFAULT_SRLIMIT);
  const limit = limitRaw === 'max' ? MAX_SRLIMIT : Number(limitRaw);
  if (!Number.isInteger(limit)) return apiError('badinteger', `Invalid value "${limitRaw}" for integer parameter "srlimit".`);
  const offsetRaw = params.get('sroffset') ?? '0';
  const offset = Number(offsetRaw);
  if (!Number.isInteger(offset)) return apiError('badinteger', `Invalid value "${offsetRaw}" for integer parameter "sroffset".`);
  return index.search(srsearch, Math.min(MAX_SRLIMIT, Math.max(1, limit)), Math.max(0, offset));
}
