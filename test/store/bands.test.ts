import assert from 'node:assert/strict';
import { test } from 'node:test';
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
