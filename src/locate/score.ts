import { contentStems, stem, tokenKey } from '../text/index.js';

/**
 * The document locator's scores (W4 paper, section 5B). Salton: the sum over the query's words
 * of weight × the word's frequency normalised by the document's length in content words (stop
 * words out, Porter stems), the harvest's relevance. BM25 (Robertson et al.): the same counts
 * with saturation and length normalisation, IDF over the documents the walk fetched.
 */

export interface Query {
  words: string[];
  /** One per word; a missing weight is 1. */
  weights: number[];
}

/** What a document contributes to scoring: its length in content stems and the counts of the query's stems. */
export interface DocStats {
  length: number;
  tf: Record<string, number>;
}

export function queryStems(q: Query): { stem: string; weight: number; word: string }[] {
  return q.words.map((w, i) => ({ stem: stem(tokenKey(w)), weight: q.weights[i] ?? 1, word: w }));
}

export function docStats(text: string, q: Query): DocStats {
  const stems = contentStems(text);
  const wanted = new Set(queryStems(q).map((s) => s.stem));
  const tf: Record<string, number> = {};
  for (const s of stems) if (wanted.has(s)) tf[s] = (tf[s] ?? 0) + 1;
  return { length: stems.length, tf };
}

export function salton(d: DocStats, q: Query): number {
  if (d.length === 0) return 0;
  let sum = 0;
  for (const s of queryStems(q)) sum += s.weight * (d.tf[s.stem] ?? 0);
  return sum / d.length;
}

/** The query's words the document holds. */
export function matched(d: DocStats, q: Query): string[] {
  return queryStems(q).filter((s) => (d.tf[s.stem] ?? 0) > 0).map((s) => s.word);
}

export const BM25_DEFAULTS = { k1: 1.2, b: 0.75 };

/** BM25 of each document of a collection, in the order given. */
export function bm25(docs: readonly DocStats[], q: Query, params = BM25_DEFAULTS): number[] {
  const n = docs.length;
  if (n === 0) return [];
  const avg = docs.reduce((a, d) => a + d.length, 0) / n || 1;
  const terms = queryStems(q);
  const idf = terms.map((t) => {
    const df = docs.filter((d) => (d.tf[t.stem] ?? 0) > 0).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  return docs.map((d) =>
    terms.reduce((sum, t, i) => {
      const tf = d.tf[t.stem] ?? 0;
      if (tf === 0) return sum;
      return sum + t.weight * idf[i]! * ((tf * (params.k1 + 1)) / (tf + params.k1 * (1 - params.b + (params.b * d.length) / avg)));
    }, 0),
  );
}
