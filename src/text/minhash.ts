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

/**
 * A set of shingles: their hashes in ascending order, each once. Two sets are compared in one
 * merge, twice as fast as a Set's lookups, and a paragraph's 48 take 192 bytes where a Set of
 * numbers took over a kilobyte (issue: speed).
 */
export type Shingles = Uint32Array;

/**
 * The word 3-shingles of a text, case and punctuation ignored; a text of fewer words is one
 * shingle. Each is kept as its hash (`shingleHash` of its words joined by spaces), not as a
 * string: the near-copy search holds thousands of sets, and numbers cost a fraction of the memory
 * and of the time to compare (issue: speed). Two shingles of one pair of paragraphs share a hash
 * by chance about once in 10^6 pairs; the corpus test finds no such pair.
 */
export function shingleSet(words: readonly string[]): Shingles {
  const keys = words.map(tokenKey);
  if (keys.length === 0) return new Uint32Array(0);
  if (keys.length < SHINGLE) return Uint32Array.of(shingleHash(keys.join(' ')));
  const out = new Uint32Array(keys.length - SHINGLE + 1);
  // FNV-1a of "k0 k1 k2", built without the string.
  for (let i = 0; i < out.length; i++) {
    let h = fnv1aOn(FNV_OFFSET, keys[i]!);
    h = fnv1aOn(Math.imul(h ^ SPACE, FNV_PRIME), keys[i + 1]!);
    h = fnv1aOn(Math.imul(h ^ SPACE, FNV_PRIME), keys[i + 2]!);
    out[i] = h >>> 0;
  }
  return ascendingOnce(out);
}

/** Shingles of any hashes (unsigned 32-bit), in any order, repeats allowed. */
export function toShingles(hashes: Iterable<number>): Shingles {
  return ascendingOnce(Uint32Array.from(hashes));
}

/** Sorts in place and moves each value's first occurrence forward; the sorted, repeat-free start. */
function ascendingOnce(hashes: Uint32Array): Shingles {
  hashes.sort();
  let n = 0;
  for (let i = 0; i < hashes.length; i++) if (n === 0 || hashes[i] !== hashes[n - 1]) hashes[n++] = hashes[i]!;
  return hashes.subarray(0, n);
}

/**
 * The Jaccard of two sets when it may reach `at`, else 0. The smaller set's size over the larger's
 * bounds it from above, so a pair of paragraphs of unlike length is settled without a look at
 * their shingles: a long page's paragraphs are each compared with all the page's others.
 */
export function jaccardIfNear(a: Shingles, b: Shingles, at = NEAR_COPY): number {
  return Math.min(a.length, b.length) < at * Math.max(a.length, b.length) ? 0 : jaccard(a, b);
}

export function jaccard(a: Shingles, b: Shingles): number {
  if (a.length === 0 && b.length === 0) return 1;
  let both = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SPACE = 0x20;

function fnv1aOn(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** A shingle's hash: FNV-1a over the UTF-16 code units of its words joined by spaces. */
export function shingleHash(shingle: string): number {
  return fnv1aOn(FNV_OFFSET, shingle) >>> 0;
}

/** MurmurHash3's finaliser: every input bit reaches every output bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One seed per minimum hash, fixed: stored band keys must mean the same in every run. */
const SEEDS = Array.from({ length: BANDS * ROWS }, (_, i) => fmix(0x9e3779b9 + i * 0x7f4a7c15));

/** SEEDS as 32-bit integers, for the loop below to stay in integer arithmetic. */
const SEEDS_I32 = Int32Array.from(SEEDS);

/**
 * The minimum of each of the BANDS × ROWS hashes, as unsigned values with the top bit flipped so
 * that a signed comparison orders them: the loop then never leaves 32-bit integers, where the
 * unsigned `fmix` made each of its 64 hashes a shingle a floating-point compare (a tenth of the
 * action's thread on the crawl bench's pages, bench profile). One array, written by each call.
 */
const MINS = new Int32Array(BANDS * ROWS);
const FLIP = 0x80000000 | 0;

/** The BANDS band keys of a shingle set (unsigned 32-bit), band i at index i; none for an empty set. */
export function bandKeys(shingles: Shingles): number[] {
  if (shingles.length === 0) return [];
  const mins = MINS;
  // Seed by seed, so that the running minimum stays in a register.
  for (let i = 0; i < mins.length; i++) {
    const seed = SEEDS_I32[i]!;
    let min = 0x7fffffff;
    for (let s = 0; s < shingles.length; s++) {
      // fmix(shingle ^ seed), flipped.
      let v = shingles[s]! ^ seed;
      v = Math.imul(v ^ (v >>> 16), 0x85ebca6b);
      v = Math.imul(v ^ (v >>> 13), 0xc2b2ae35);
      v = v ^ (v >>> 16) ^ FLIP;
      if (v < min) min = v;
    }
    mins[i] = min;
  }
  const keys: number[] = [];
  for (let b = 0; b < BANDS; b++) {
    let h = b;
    for (let r = 0; r < ROWS; r++) h = fmix(Math.imul(h, 0x01000193) ^ mins[b * ROWS + r]! ^ FLIP);
    keys.push(h);
  }
  return keys;
}
