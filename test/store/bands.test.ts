import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { BAND_FANOUT, bandRows, bandsColumn, FullBands, keysOfBandsColumn, shingleBlob, shinglesOfBlob } from '../../src/store/rows.js';
import { BandIndex, rankInIndex } from '../../src/store/band-index.js';
import { nodesOf } from '../support/band-index.js';

function indexOf(found: Map<number, Iterable<number>>): BandIndex {
  const index = new BandIndex(16);
  for (const [key, ids] of found) for (const id of ids) index.add(key, id);
  return index;
}

test('near-copy candidates: the nodes sharing most band keys with each signature first, at most the limit', () => {
  const a = [11, 12, 13, 14];
  const b = [21, 22, 23, 24];
  const [ka, kb] = [bandRows(a), bandRows(b)];
  // Node 1 shares three of a's keys, node 2 one, node 3 two; node 9 only b's first.
  const index = indexOf(new Map([[ka[0]!, [1, 2, 3]], [ka[1]!, [1, 3]], [ka[2]!, [1]], [kb[0]!, [9]]]));
  const full = new FullBands();
  assert.deepEqual(rankInIndex(index, [a, b], 2, full), [[1, 3], [9]]);
  assert.deepEqual(rankInIndex(index, [a], 8, full), [[1, 3, 2]]);
  assert.deepEqual(rankInIndex(index, [a], 0, full), [[]]);
  // The same key value in another band is another key: band 1's 11 is not band 0's.
  assert.deepEqual(rankInIndex(index, [[99, 11]], 8, full), [[]]);
});

test('near-copy candidates: the same as ranking every node by keys shared, then by newest, a crowded key\'s first BAND_FANOUT', () => {
  const rng = seedrandom('bands');
  for (let round = 0; round < 300; round++) {
    const sig = Array.from({ length: 16 }, (_, i) => i);
    const keys = bandRows(sig);
    // Some keys hold more nodes than a key is read for: its lowest ids count.
    const size = () => Math.floor(rng() * (rng() < 0.1 ? 2 * BAND_FANOUT : 40));
    const found = new Map(keys.map((k) => [k, new Set(Array.from({ length: size() }, () => 1 + Math.floor(rng() * 150)))]));
    const counts = new Map<number, number>();
    for (const ids of found.values()) {
      for (const id of [...ids].sort((x, y) => x - y).slice(0, BAND_FANOUT)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const limit = Math.floor(rng() * 10);
    const all = [...counts].sort((x, y) => y[1] - x[1] || y[0] - x[0]).map(([id]) => id);
    assert.deepEqual(rankInIndex(indexOf(found), [sig, sig], limit, new FullBands()), [all.slice(0, limit), all.slice(0, limit)]);
  }
});

test('full band keys: learnt from a search, left out of a new node\'s rows, and at most the bound remembered', () => {
  const full = new FullBands(2);
  const fill = (n: number) => Array.from({ length: n }, (_, i) => i);
  const [a, b, c] = bandRows([1, 2, 3]);
  rankInIndex(indexOf(new Map([[a!, fill(BAND_FANOUT)], [b!, fill(BAND_FANOUT - 1)]])), [[1, 2, 3]], 8, full);
  assert.deepEqual(full.open([1, 2, 3]), [b, c], 'band 0 is full; band 1 has room');
  rankInIndex(indexOf(new Map([[b!, fill(BAND_FANOUT)], [c!, fill(BAND_FANOUT + 5)]])), [[1, 2, 3]], 8, full);
  assert.deepEqual(full.open([1, 2, 3]), [a], 'the oldest learnt is forgotten first');
});

test('shingles as a node keeps them: little-endian 32-bit words, and back the same', () => {
  const shingles = Uint32Array.of(1, 0xdeadbeef, 2 ** 32 - 1);
  const blob = shingleBlob(shingles)!;
  assert.deepEqual([...blob], [1, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde, 255, 255, 255, 255]);
  assert.deepEqual(shinglesOfBlob(blob), shingles);
  assert.deepEqual([...shingles], [1, 0xdeadbeef, 2 ** 32 - 1], 'the node\'s own are left as they were');
  // A driver may hand the column over as a slice of a larger buffer, at any offset.
  const within = Buffer.concat([Buffer.from([9, 9, 9]), blob]).subarray(3);
  assert.deepEqual(shinglesOfBlob(within), shingles);
  assert.equal(shingleBlob(undefined), null);
  assert.equal(shinglesOfBlob(null), undefined, 'a node stored without them');
});

test('band keys as a node keeps them: comma-separated, NULL for none, and back the same', () => {
  const keys = bandRows([7, 2 ** 32 - 1, 0]);
  assert.deepEqual(keys, [7, 2 ** 33 - 1, 2 ** 33]);
  assert.equal(bandsColumn(keys), `7,${2 ** 33 - 1},${2 ** 33}`);
  assert.deepEqual(keysOfBandsColumn(bandsColumn(keys)), keys);
  assert.equal(bandsColumn([]), null);
  for (const none of [null, undefined, '']) assert.deepEqual(keysOfBandsColumn(none), [], String(none));
});

test('band index: the same nodes under each key as a map of sets, through growth, repeats and crowded keys', () => {
  const rng = seedrandom('band-index');
  for (let round = 0; round < 20; round++) {
    const index = new BandIndex(16);
    const reference = new Map<number, Set<number>>();
    // Few keys in some rounds (long runs of one key), many in others; keys of every band, ids up to 2^32 - 1.
    const keyCount = round % 2 === 0 ? 5 : 5000;
    const keys = Array.from({ length: keyCount }, () => Math.floor(rng() * 16) * 2 ** 32 + Math.floor(rng() * 2 ** 32));
    for (let i = 0; i < 4000; i++) {
      const key = keys[Math.floor(rng() * keys.length)]!;
      const id = rng() < 0.01 ? 2 ** 32 - 1 : 1 + Math.floor(rng() * 3000);
      index.add(key, id);
      if (!reference.has(key)) reference.set(key, new Set());
      reference.get(key)!.add(id);
    }
    assert.equal(index.size, [...reference.values()].reduce((n, s) => n + s.size, 0));
    for (const [key, ids] of reference) {
      assert.deepEqual(nodesOf(index, key), [...ids].sort((a, b) => a - b).slice(0, BAND_FANOUT));
      assert.deepEqual(nodesOf(index, key, 3), [...ids].sort((a, b) => a - b).slice(0, 3));
    }
    // The same value in another band is another key.
    const [some] = reference.keys();
    const elsewhere = (some! + 2 ** 32) % (16 * 2 ** 32);
    if (!reference.has(elsewhere)) assert.deepEqual(nodesOf(index, elsewhere), []);
  }
  assert.throws(() => new BandIndex().add(-1, 1), RangeError);
  assert.throws(() => new BandIndex().add(1, 2 ** 32), RangeError);
  assert.throws(() => new BandIndex().add(2 ** 53, 1), RangeError);
});

test('band index: the smallest key and node id are held like any other; a key or id out of range is refused', () => {
  const index = new BandIndex(16);
  index.add(0, 0);
  index.add(1, 1);
  index.add(1, 0);
  index.add(2 ** 32 + 1, 2 ** 32 - 1);
  assert.deepEqual(nodesOf(index, 0), [0]);
  assert.deepEqual(nodesOf(index, 1), [0, 1]);
  assert.deepEqual(nodesOf(index, 2 ** 32 + 1), [2 ** 32 - 1]);
  assert.deepEqual(nodesOf(index, 2), [], 'a key never filed');
  const out = new Uint32Array(6).fill(7);
  assert.equal(index.nodesInto(1, out, 3), 2);
  assert.deepEqual([...out.subarray(3, 5)].sort(), [0, 1]);
  assert.deepEqual([...out.subarray(0, 3)], [7, 7, 7], 'written from where it was asked');
  for (const [key, id] of [[-1, 1], [1.5, 1], [1, -1], [1, 2 ** 32], [1, 0.5], [Number.NaN, 1]] as const) {
    assert.throws(() => index.add(key, id), RangeError, `${key}, ${id}`);
  }
  assert.equal(index.size, 4);
});
