import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CandidateCache } from '../../src/store/candidate-cache.js';
import { sha256 } from '../../src/store/hash.js';

const candidate = (id: number, n = 10) => ({ id, textHash: sha256(`text ${id}`), shingles: Uint32Array.from({ length: n }, (_, i) => id * 1000 + i) });

test('a candidate kept comes back whole, its shingles a copy', () => {
  const cache = new CandidateCache(1 << 12);
  const c = candidate(7);
  cache.keep(c);
  const got = cache.get(7)!;
  assert.deepEqual(got, c);
  got.shingles![0] = 0;
  assert.deepEqual(cache.get(7), c, 'the ring is not written through the copy');
  assert.equal(cache.get(9), undefined);
  cache.clear();
  assert.equal(cache.get(7), undefined);
  assert.equal(cache.size, 0);
});

test('the ring lets the oldest go as it wraps, and keeps every later one whole', () => {
  // 12 words an entry (2 of head, 10 shingles), 60 words of room: five at a time.
  const cache = new CandidateCache(240);
  for (let id = 1; id <= 23; id++) {
    cache.keep(candidate(id));
    const held = Array.from({ length: id }, (_, i) => i + 1).filter((k) => cache.get(k) !== undefined);
    assert.deepEqual(held, Array.from({ length: Math.min(5, id) }, (_, i) => id - Math.min(5, id) + 1 + i), `after ${id}`);
    for (const k of held) assert.deepEqual(cache.get(k), candidate(k));
  }
  assert.equal(cache.size, 5);
});

test('entries of other sizes: a long one pushes out as many as it overlaps; one larger than the ring is not kept', () => {
  const cache = new CandidateCache(240);
  for (let id = 1; id <= 4; id++) cache.keep(candidate(id)); // words 0-47
  cache.keep(candidate(5, 20)); // 22 words: does not fit at 48, wraps and overlaps 1 and 2
  assert.deepEqual([1, 2, 3, 4, 5].map((k) => cache.get(k) !== undefined), [false, false, true, true, true]);
  assert.deepEqual(cache.get(5), candidate(5, 20));
  cache.keep(candidate(6, 200));
  assert.equal(cache.get(6), undefined);
  assert.deepEqual(cache.get(3), candidate(3));
});

test('a node kept again is held at its newer place when its older one is let go', () => {
  const cache = new CandidateCache(240);
  cache.keep(candidate(1));
  cache.keep(candidate(2));
  const again = { ...candidate(1), textHash: sha256('edited') };
  cache.keep(again);
  cache.keep(candidate(3));
  cache.keep(candidate(4)); // 1, 2, 1 again, 3, 4 fill the ring
  cache.keep(candidate(5)); // wraps over the first entry of 1
  assert.deepEqual(cache.get(1), again);
  cache.keep(candidate(6)); // and over 2
  assert.deepEqual([cache.get(1), cache.get(2)], [again, undefined]);
});
