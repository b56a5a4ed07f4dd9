import { jaccard, NEAR_COPY, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';

/**
 * The texts of `xs` that are neither in `ys` nor a near-copy of one of them. Two walks of one web
 * in another order keep the same paragraphs, except that of two near-copies (the corpus's ebooks
 * end with colophons that differ in a few words) the one met first becomes the node.
 */
export function notNearAny(xs: string[], ys: string[]): string[] {
  const theirs = ys.map((y) => shingleSet(words(y)));
  const known = new Set(ys);
  return xs.filter((x) => !known.has(x) && !theirs.some((y) => jaccard(shingleSet(words(x)), y) >= NEAR_COPY));
}
