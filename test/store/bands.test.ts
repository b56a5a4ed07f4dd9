import assert from 'node:assert/strict';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { bandRows, rankByBands } from '../../src/store/rows.js';

test('near-copy candidates: the nodes sharing most band keys with each signature first, at most the limit', () => {
  const a = [11, 12, 13, 14];
  const b = [21, 22, 23, 24];
  const [ka, kb] = [bandRows(a), bandRows(b)];
  // Node 1 shares three of a's keys, node 2 one, node 3 two; node 9 only b's first.
  const found = new Map<number, number[]>([
    [ka[0]!, [1, 2, 3]], [ka[1]!, [1, 3]], [ka[2]!, [1]], [kb[0]!, [9]],
  ]);
  assert.deepEqual(rankByBands([a, b], found, 2), [[1, 3], [9]]);
  assert.deepEqual(rankByBands([a], found, 8), [[1, 3, 2]]);
  // The same key value in another band is another key: band 1's 11 is not band 0's.
  assert.deepEqual(rankByBands([[99, 11]], found, 8), [[]]);
});

test('near-copy candidates: the same as ranking every node by keys shared, then by newest', () => {
  const rng = seedrandom('bands');
  for (let round = 0; round < 300; round++) {
    const sig = Array.from({ length: 16 }, (_, i) => i);
    const keys = bandRows(sig);
    const found = new Map(keys.map((k) => [k, Array.from({ length: Math.floor(rng() * 40) }, () => 1 + Math.floor(rng() * 60))]));
    const counts = new Map<number, number>();
    for (const k of keys) for (const id of found.get(k)!) counts.set(id, (counts.get(id) ?? 0) + 1);
    const limit = Math.floor(rng() * 10);
    const all = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([id]) => id);
    assert.deepEqual(rankByBands([sig], found, limit), [all.slice(0, limit)]);
  }
});
