import { tokenKey } from './tokenize.js';

/*
 * Near-copies of a paragraph (a footer or licence line repeated across a site's pages with a year
 * or a name changed; a syndicated story on a mirror) by the Jaccard similarity of their word
 * 3-shingle sets, found among many stored paragraphs with MinHash and locality-sensitive hashing
 * (Broder 1997; Leskovec, Rajaraman & Ullman, Mining of Massive Datasets, ch. 3).
 *
 * SimHash with a 3-bit threshold, the web-page choice, suits documents of thousands of features; a
 * paragraph of 50 words has 48 shingles, and one changed word already moves its SimHash by about
 * 7 bits, so it would miss the copies this is for. MinHash estimates Jaccard whatever the length.
 *
 * The signature is BANDS × ROWS minimum hashes; each band of ROWS values is hashed to one 32-bit
 * key. Two paragraphs of similarity J share at least one band key with probability
 * 1 − (1 − J^ROWS)^BANDS: 0.99 at J = 0.7, 0.64 at 0.5, 0.12 at 0.3. Sharing a key only makes
 * a candidate; the similarity of the shingle sets themselves decides.
 */

export const BANDS = 16;
export const ROWS = 4;
const SHINGLE = 3;

/**
 * A near-copy shares at least this share of its shingles with the other (Jaccard). One word
 * changed in a paragraph of 23 words (the thesis's rules keep paragraphs from about ten) leaves
 * 0.75; two changed words in it, 0.55.
 */
export const NEAR_COPY = 0.7;

/** The word 3-shingles of a text, case and punctuation ignored; a text of fewer words is one shingle. */
export function shingleSet(words: readonly string[]): Set<string> {
  const keys = words.map(tokenKey);
  const out = new Set<string>();
  if (keys.length === 0) return out;
  if (keys.length < SHINGLE) {
    out.add(keys.join(' '));
    return out;
  }
  for (let i = 0; i + SHINGLE <= keys.length; i++) out.add(`${keys[i]} ${keys[i + 1]} ${keys[i + 2]}`);
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let both = 0;
  for (const s of small) if (large.has(s)) both++;
  return both / (a.size + b.size - both);
}

/** FNV-1a over the string's UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: every input bit reaches every output bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One seed per minimum hash, fixed: stored band keys must mean the same in every run. */
const SEEDS = Array.from({ length: BANDS * ROWS }, (_, i) => fmix(0x9e3779b9 + i * 0x7f4a7c15));

/** The BANDS band keys of a shingle set (unsigned 32-bit), band i at index i; none for an empty set. */
export function bandKeys(shingles: ReadonlySet<string>): number[] {
  if (shingles.size === 0) return [];
  const mins = new Array<number>(SEEDS.length).fill(0xffffffff);
  for (const s of shingles) {
    const h = fnv1a(s);
    for (let i = 0; i < SEEDS.length; i++) {
      const v = fmix(h ^ SEEDS[i]!);
      if (v < mins[i]!) mins[i] = v;
    }
  }
  const keys: number[] = [];
  for (let b = 0; b < BANDS; b++) {
    let h = b;
    for (let r = 0; r < ROWS; r++) h = fmix(Math.imul(h, 0x01000193) ^ mins[b * ROWS + r]!);
    keys.push(h);
  }
  return keys;
}
