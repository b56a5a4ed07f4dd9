import { relevance, stem, tokenKey } from '../../text/index.js';
import type { PageView, RuntimeAction } from './action.js';
import { followable } from './inferiors.js';

/**
 * The document locator's actions (W4 paper, section 5B): a Salton score, the sum of normalised
 * keyword frequencies times their weights, over the Porter stems of the page's content words.
 */

export interface SaltonQuery {
  words: string[];
  weights: number[];
}

/** The query's stems with their weights (a weight per word; a missing weight is 1). */
export function saltonStems(q: SaltonQuery): { stems: string[]; weights: Record<string, number> } {
  const stems = q.words.map((w) => stem(tokenKey(w)));
  const weights: Record<string, number> = {};
  stems.forEach((s, i) => (weights[s] = q.weights[i] ?? 1));
  return { stems, weights };
}

export function saltonScore(text: string, q: SaltonQuery): { score: number; matched: string[] } {
  const { stems, weights } = saltonStems(q);
  const score = relevance(text, stems, { weights });
  const present = new Set(relevanceWords(text));
  return { score, matched: q.words.filter((_w, i) => present.has(stems[i]!)) };
}

function relevanceWords(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map((w) => stem(tokenKey(w)));
}

/** Appendix B `salton-check-uri`: the page is returned (reported, and kept as located) when its score reaches THRESHOLD. */
export function saltonCheckUri(q: SaltonQuery, threshold: number): RuntimeAction {
  return {
    name: 'salton-check-uri',
    run: (v, out) => {
      const { score, matched } = pageScore(v, q);
      out.notes.score = score;
      if (score >= threshold && score > 0) {
        out.located.push({ url: v.page.finalUrl, score, title: v.title(), matched });
        v.report.text(`${score.toFixed(4)} ${v.page.finalUrl}${matched.length ? ` (${matched.join(', ')})` : ''}`);
      }
    },
  };
}

/**
 * Appendix B `walk-salton-sorted-inferiors`: the page's links walked best first. A link's own
 * document is not fetched yet, so its priority is the score of what is known of it: this page
 * (its context) plus its anchor text and URL words, which orders the siblings.
 */
export function walkSaltonSortedInferiors(q: SaltonQuery): RuntimeAction {
  return {
    name: 'walk-salton-sorted-inferiors',
    run: (v, out) => {
      const context = typeof out.notes.score === 'number' ? out.notes.score : pageScore(v, q).score;
      for (const l of followable(v)) {
        const own = saltonScore(`${l.anchorText} ${pathWords(l.url)}`, q).score;
        out.follow.push({ url: l.url, priority: context + own });
      }
    },
  };
}

function pageScore(v: PageView, q: SaltonQuery): { score: number; matched: string[] } {
  return saltonScore(v.text(), q);
}

export function pathWords(url: string): string {
  const path = new URL(url).pathname;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray % keeps the path as it is.
  }
  return decoded.replace(/[/_.-]+/g, ' ');
}
