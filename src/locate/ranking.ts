import { escapeHtml, safeHref } from '../html/escape.js';
import { reportDocument } from '../walk/actions/html.js';
import type { ScoredPage } from './action.js';
import { bm25, matched, type Query } from './score.js';
import { printable } from '../errors.js';

/** The located documents: the pages whose score reaches the threshold, best first, and how they are written out. */

export type Scoring = 'salton' | 'bm25';

export interface LocatedDoc {
  score: number;
  url: string;
  title: string;
  matched: string[];
  depth: number;
  /** The page was the nth the walk read: how soon the search found it. */
  found: number;
}

/** BM25 is computed over every page the walk read, once the walk is over, so that its IDF is the collection's. */
export function rank(pages: readonly ScoredPage[], q: Query, scoring: Scoring, threshold: number): LocatedDoc[] {
  const scores = scoring === 'bm25' ? bm25(pages.map((p) => p.stats), q) : pages.map((p) => p.salton);
  return pages
    .map((p, i) => ({ score: scores[i]!, url: p.url, title: p.title, matched: matched(p.stats, q), depth: p.depth, found: p.order }))
    .filter((d) => d.score > 0 && d.score >= threshold)
    .sort((a, b) => b.score - a.score || a.found - b.found);
}

export function rankingText(docs: readonly LocatedDoc[]): string {
  if (docs.length === 0) return '';
  const rows = docs.map((d) => [d.score.toFixed(4), d.url, oneLine(d.title), d.matched.join(',')]);
  const width = (c: number) => Math.max(...rows.map((r) => r[c]!.length));
  const [w0, w1, w2] = [width(0), width(1), width(2)];
  return rows.map((r) => `${r[0]!.padStart(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]!.padEnd(w2)}  ${r[3]}`.trimEnd()).join('\n') + '\n';
}

export function rankingHtml(docs: readonly LocatedDoc[], facts: [string, string][]): string {
  const rows = docs
    .map((d, i) => `<tr><td>${i + 1}</td><td>${d.score.toFixed(4)}</td><td><a href="${safeHref(d.url)}">${escapeHtml(d.title || d.url)}</a><br><small>${escapeHtml(d.url)}</small></td><td>${escapeHtml(d.matched.join(', '))}</td><td>${d.found}</td></tr>`)
    .join('\n');
  const table = `<table><thead><tr><th>rank</th><th>score</th><th>document</th><th>matched words</th><th>found after</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
  return reportDocument('anwc locate', facts, [table]);
}

/** A page's words on one line of a terminal: its controls shown, not obeyed. */
function oneLine(s: string): string {
  return printable(s.replace(/\s+/g, ' ').trim());
}
