import type { NearCandidate } from './store.js';

/**
 * Room for the candidates' shingles: 4 MB holds some 16,000 (a paragraph's average 250 bytes),
 * the candidates of a 10,000-page harvest of the crawl bench's web, whose paragraphs come up as
 * candidates nineteen times each; a larger harvest keeps those read last.
 */
const CACHE_BYTES = 4 << 20;

/** An entry's words before its shingles: the node id, the shingle count. */
const HEAD = 2;

/**
 * The near-copy candidates read last (id, text hash, shingles), in memory: the same stored
 * paragraphs come up as candidates again and again, and reading them by id cost a SQLite harvest
 * 0.24 ms a page on the store's thread, half of it reading pages its small page cache had let go
 * (bench profile); on MySQL each read is a round trip. Only candidates read from the store are
 * kept, never a node being written, so a transaction taken back leaves nothing here on MySQL
 * (on SQLite, whose ids are given again, the cache is emptied with the band index). A crawler
 * node's text changes only by an author's edit, which empties it as it makes the band index be
 * read again (BANDS_EDITED).
 *
 * One ring of 32-bit words, entries written one after another and wrapped at its end, where a
 * Map of objects would cost twice the bytes and the garbage collector's time.
 */
export class CandidateCache {
  private readonly words: Uint32Array;
  /** Node id → its entry's offset, and its text's hash (kept as the string it is compared as). */
  private readonly at = new Map<number, { offset: number; textHash: string }>();
  /** Where the next entry goes. */
  private end = 0;
  /** The oldest entry still held from the lap before, and where that lap ended. */
  private oldest = 0;
  private lapEnd = 0;

  constructor(bytes = CACHE_BYTES) {
    this.words = new Uint32Array(Math.max(HEAD, bytes >>> 2));
  }

  get size(): number {
    return this.at.size;
  }

  /** Keeps a candidate as read (its shingles stored, or split from its text). */
  keep(c: NearCandidate): void {
    const need = HEAD + c.shingles.length;
    if (need > this.words.length) return;
    if (this.end + need > this.words.length) {
      this.evictTo(this.lapEnd);
      this.lapEnd = this.end;
      this.oldest = 0;
      this.end = 0;
    }
    this.evictTo(this.end + need);
    const w = this.words;
    const o = this.end;
    w[o] = c.id;
    w[o + 1] = c.shingles.length;
    w.set(c.shingles, o + HEAD);
    this.at.set(c.id, { offset: o, textHash: c.textHash });
    this.end = o + need;
  }

  /** The candidate, when it is held: its shingles a copy, as the ring may be written over. */
  get(id: number): NearCandidate | undefined {
    const entry = this.at.get(id);
    if (entry === undefined) return undefined;
    const o = entry.offset;
    return { id, textHash: entry.textHash, shingles: this.words.slice(o + HEAD, o + HEAD + this.words[o + 1]!) };
  }

  clear(): void {
    this.at.clear();
    this.end = this.oldest = this.lapEnd = 0;
  }

  /** Drops the entries of the lap before that start below `to`. */
  private evictTo(to: number): void {
    const w = this.words;
    while (this.oldest < this.lapEnd && this.oldest < to) {
      const id = w[this.oldest]!;
      // A node kept again since is held at its newer place.
      if (this.at.get(id)?.offset === this.oldest) this.at.delete(id);
      this.oldest += HEAD + w[this.oldest + 1]!;
    }
  }
}
