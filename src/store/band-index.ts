import { BAND_FANOUT, mostShared, type FullBands } from './rows.js';

/**
 * The setting an edit of a node's band keys bumps (SQLite: also a delete of a node with keys, by a
 * trigger of sql/sqlite/017): every process that holds the keys in memory reads them all again.
 */
export const BANDS_EDITED = 'node_bands_edited';

const EMPTY = -1;
const TWO_32 = 2 ** 32;

/**
 * Band key → the nodes written under it, in memory: the near-copy search asks some sixteen keys a
 * paragraph, and a B-tree keyed by them costs a random page write a key on every commit (the most
 * of a SQLite harvest's store time, bench profile). Pairs sit in two typed arrays with open
 * addressing, 12 bytes a slot: the 1.2 million band rows of a 100,000-page harvest take 2 million
 * slots, 25 MB, where a Map of arrays would take several times that. Keys are band × 2^32 + a 32-bit
 * MinHash value (rows.ts bandRows), node ids below 2^32.
 */
export class BandIndex {
  private keys: Float64Array;
  private ids: Uint32Array;
  private used = 0;

  constructor(capacity = 1 << 10) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.keys = new Float64Array(slots).fill(EMPTY);
    this.ids = new Uint32Array(slots);
  }

  /** Pairs held. */
  get size(): number {
    return this.used;
  }

  /** Files the node under the key; a pair held already is not held twice. */
  add(key: number, id: number): void {
    if (!Number.isSafeInteger(key) || key < 0 || !Number.isInteger(id) || id < 0 || id >= TWO_32) {
      throw new RangeError(`band index: key ${key} or node id ${id} out of range`);
    }
    // Grown at three quarters full: a run of used slots stays short.
    if ((this.used + 1) * 4 > this.keys.length * 3) this.grow();
    this.place(key, id);
  }

  /**
   * Writes the node ids under the key into `out` from `at`, at most `limit` of them (the lowest,
   * as the table's first BAND_FANOUT, when a key was filled past it), in no set order, and gives
   * how many it wrote.
   */
  nodesInto(key: number, out: Uint32Array, at: number, limit = BAND_FANOUT): number {
    const mask = this.keys.length - 1;
    let n = 0;
    for (let i = slotOf(key, mask); this.keys[i] !== EMPTY; i = (i + 1) & mask) {
      if (this.keys[i] !== key) continue;
      if (n === limit) return this.lowestInto(key, out, at, limit);
      out[at + n++] = this.ids[i]!;
    }
    return n;
  }

  /** nodesInto for a key that holds more than `limit` nodes. */
  private lowestInto(key: number, out: Uint32Array, at: number, limit: number): number {
    const mask = this.keys.length - 1;
    const all: number[] = [];
    for (let i = slotOf(key, mask); this.keys[i] !== EMPTY; i = (i + 1) & mask) if (this.keys[i] === key) all.push(this.ids[i]!);
    out.set(all.sort((a, b) => a - b).slice(0, limit), at);
    return limit;
  }

  private place(key: number, id: number): void {
    const mask = this.keys.length - 1;
    let i = slotOf(key, mask);
    for (; this.keys[i] !== EMPTY; i = (i + 1) & mask) {
      if (this.keys[i] === key && this.ids[i] === id) return;
    }
    this.keys[i] = key;
    this.ids[i] = id;
    this.used++;
  }

  private grow(): void {
    const [keys, ids] = [this.keys, this.ids];
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.ids = new Uint32Array(keys.length * 2);
    this.used = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== EMPTY) this.place(keys[i]!, ids[i]!);
  }
}

/**
 * The stored nodes each signature shares most band keys with (its `limit` first), from the index;
 * the keys found full are learnt, so that no new node is written under them. The ids found under
 * a signature's keys go into one array, sorted and counted in runs: an array a key and a Map of
 * counts took 39 µs for a page's search on the crawl bench's web, this 17 µs.
 */
export function rankInIndex(index: BandIndex, signatures: number[][], limit: number, full: FullBands): number[][] {
  return signatures.map((sig) => {
    const found = scratch(sig.length * BAND_FANOUT);
    let n = 0;
    sig.forEach((value, band) => {
      const key = band * TWO_32 + value;
      const held = index.nodesInto(key, found, n, BAND_FANOUT);
      full.learn(key, held);
      n += held;
    });
    return mostShared(found.subarray(0, n), limit);
  });
}

let scratchIds = new Uint32Array(0);

/** One array for every search, grown to the largest asked: the searches run one at a time. */
function scratch(length: number): Uint32Array {
  if (scratchIds.length < length) scratchIds = new Uint32Array(length);
  return scratchIds;
}

/** murmur3's finaliser over the MinHash value with the band mixed in: the band alone would crowd keys of one band together. */
function slotOf(key: number, mask: number): number {
  const band = Math.floor(key / TWO_32);
  let h = (key % TWO_32) ^ Math.imul(band + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & mask;
}
