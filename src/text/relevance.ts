import { stem } from './stem.js';
import { DEFAULT_STOP_WORDS } from './stopwords.js';
import { tokenKey, words } from './tokenize.js';

/*
 * The Salton-style score of the W4 paper's document locator: "a document score is computed by
 * summing normalized frequency counts for the keywords", each keyword with a weight.
 *
 *   relevance(d, M) = Σ_{m ∈ M} w(m) · tf(m, d) / |d|
 *
 * where d is the list of Porter stems of d's tokens that are not stop words, |d| its length,
 * tf(m, d) how many of them equal m, M the set of meta stems (duplicates count once) and w(m)
 * the weight of m (1 unless given). With unit weights the score is the share of a block's content
 * words that are meta words: 0 for none, 1 for a block made of nothing else. Stop words are
 * dropped before counting so that ordinary English, which is a quarter stop words or more, does
 * not dilute the score, and a block with no content words scores 0.
 */

export interface RelevanceOptions {
  /** Dropped before stemming. Default: the thesis's Appendix A list. */
  stopWords?: ReadonlySet<string>;
  /** w(m) per meta stem; stems absent here weigh 1. */
  weights?: Readonly<Record<string, number>>;
}

/** The Porter stems of the tokens of `text` that are not stop words, in order. */
export function contentStems(text: string, stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS): string[] {
  return contentStemsOfWords(words(text), stopWords);
}

/** contentStems() of words already split (as evaluateBlock returns them). */
export function contentStemsOfWords(ws: readonly string[], stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS): string[] {
  const out: string[] = [];
  for (const w of ws) {
    const token = tokenKey(w);
    if (!stopWords.has(token)) out.push(stem(token));
  }
  return out;
}

/** The score of stems already extracted with contentStems(). */
export function relevanceOfStems(
  stems: readonly string[],
  metaStems: readonly string[],
  weights: Readonly<Record<string, number>> = {},
): number {
  if (stems.length === 0) return 0;
  const meta = new Set(metaStems.map(tokenKey));
  if (meta.size === 0) return 0;
  let sum = 0;
  for (const s of stems) if (meta.has(s)) sum += Object.hasOwn(weights, s) ? (weights[s] ?? 1) : 1;
  return sum / stems.length;
}

/** relevance(d, M) above: metaStems are stems (see stem()), compared lowercased. */
export function relevance(text: string, metaStems: readonly string[], options: RelevanceOptions = {}): number {
  // Without meta words the score is 0 whatever the text: skip tokenizing and stemming it.
  if (metaStems.length === 0) return 0;
  return relevanceOfStems(contentStems(text, options.stopWords), metaStems, options.weights);
}

/**
 * The weight of each meta stem as evidence that a node is about it, in the order given; 0 means
 * no link. The engine draws nodes by the stem of a clicked word, so a link needs evidence, not
 * lineage: tf(m, node) / |node| when the stem is among the node's stems; half a mention
 * (0.5 / |node|) when it is only in the page's title or headings (`pageStems`).
 */
export function metaEvidence(stems: readonly string[], pageStems: ReadonlySet<string>, metaStems: readonly string[]): number[] {
  const count = new Map<string, number>();
  for (const s of stems) count.set(s, (count.get(s) ?? 0) + 1);
  const size = Math.max(1, stems.length);
  return metaStems.map((m) => {
    const key = tokenKey(m);
    const tf = count.get(key) ?? 0;
    if (tf > 0) return tf / size;
    return pageStems.has(key) ? 0.5 / size : 0;
  });
}
