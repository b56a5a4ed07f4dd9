import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { FenwickWheel } from '../../src/walk/strategies/fenwick.js';
import { RouletteWheel } from '../../src/walk/strategies/roulette.js';
import { SCORE_FLOOR } from '../../src/store/store.js';

/** Largest |observed - expected| in standard deviations of a binomial count, over all slots. */
function worstSigma(counts: number[], probs: number[], n: number): number {
  let worst = 0;
  probs.forEach((p, i) => {
    const sd = Math.sqrt(n * p * (1 - p)) || 1;
    worst = Math.max(worst, Math.abs(counts[i]! - n * p) / sd);
  });
  return worst;
}

test('find returns the slot whose slice holds r, at every boundary', () => {
  const w = new FenwickWheel(4);
  [3, 0, 2, 5].forEach((x, i) => w.set(i, x));
  assert.equal(w.total(), 10);
  const expected: [number, number][] = [[0, 0], [2.999, 0], [3, 2], [4.999, 2], [5, 3], [9.999, 3]];
  for (const [r, slot] of expected) assert.equal(w.find(r), slot, `r=${r}`);
});

test('the wheel grows past its capacity and keeps earlier weights', () => {
  const w = new FenwickWheel(2);
  for (let i = 0; i < 100; i++) w.set(i, i % 3 === 0 ? 1 : 0);
  assert.equal(w.total(), 34);
  assert.ok(w.capacity >= 100);
  for (let i = 0; i < 100; i++) assert.equal(w.weight(i), i % 3 === 0 ? 1 : 0);
  assert.equal(w.find(33.5), 99);
});

test('a negative or non-finite weight is refused', () => {
  const w = new FenwickWheel();
  assert.throws(() => w.set(0, -1), RangeError);
  assert.throws(() => w.set(0, Number.NaN), RangeError);
});

test('draw frequencies follow the scores (binomial, 5 sigma)', () => {
  const scores = [1, 2, 3, 4, 10, 0, 5];
  const wheel = new RouletteWheel<string>();
  scores.forEach((s, i) => {
    wheel.upsert(`d${i}`, s);
    wheel.setEligible(`d${i}`, true);
  });
  const rng = seedrandom('draws');
  const n = 100_000;
  const counts = scores.map(() => 0);
  for (let i = 0; i < n; i++) counts[Number(wheel.draw(rng)!.slice(1))]!++;
  const total = scores.reduce((a, b) => a + b, 0);
  assert.equal(counts[5], 0, 'a domain with score 0 is never drawn');
  const sigma = worstSigma(counts, scores.map((s) => s / total), n);
  assert.ok(sigma < 5, `worst deviation ${sigma.toFixed(2)} sigma; counts ${counts.join(',')}`);
});

test('ineligible domains are never drawn and keep their score for later', () => {
  const wheel = new RouletteWheel<number>();
  for (let d = 0; d < 5; d++) {
    wheel.upsert(d, 1);
    wheel.setEligible(d, true);
  }
  wheel.reward(3, 4);
  wheel.setEligible(3, false);
  const rng = seedrandom('cool');
  for (let i = 0; i < 2000; i++) assert.notEqual(wheel.draw(rng), 3);
  assert.equal(wheel.eligibleTotal(), 4);
  wheel.setEligible(3, true);
  assert.equal(wheel.eligibleTotal(), 9);
  assert.equal(wheel.score(3), 5);
});

test('nothing eligible draws undefined', () => {
  const wheel = new RouletteWheel<number>();
  wheel.upsert(1);
  assert.equal(wheel.draw(Math.random), undefined);
  wheel.setEligible(1, true);
  assert.equal(wheel.draw(Math.random), 1);
  wheel.setEligible(1, false);
  assert.equal(wheel.draw(Math.random), undefined);
});

test('rewards shift the wheel: a rewarded domain gains its slice (thesis figure 5)', () => {
  const wheel = new RouletteWheel<number>();
  for (let d = 0; d < 10; d++) {
    wheel.upsert(d);
    wheel.setEligible(d, true);
  }
  wheel.reward(8, 1);
  const rng = seedrandom('fig5');
  const n = 50_000;
  const counts = new Array(10).fill(0);
  for (let i = 0; i < n; i++) counts[wheel.draw(rng)!]++;
  const probs = counts.map((_, d) => (d === 8 ? 2 / 11 : 1 / 11));
  const sigma = worstSigma(counts, probs, n);
  assert.ok(sigma < 5, `worst deviation ${sigma.toFixed(2)} sigma`);
  assert.deepEqual(wheel.top(1)[0], { key: 8, score: 2, share: 2 / 11 });
});

test('the same seed gives the same sequence of draws', () => {
  const make = () => {
    const w = new RouletteWheel<number>();
    for (let d = 0; d < 50; d++) {
      w.upsert(d, (d % 7) + 1);
      w.setEligible(d, true);
    }
    return w;
  };
  const a = make();
  const b = make();
  const ra = seedrandom('42');
  const rb = seedrandom('42');
  const seqA = Array.from({ length: 200 }, () => a.draw(ra));
  const seqB = Array.from({ length: 200 }, () => b.draw(rb));
  assert.deepEqual(seqA, seqB);
});

test('a penalty shrinks a slice down to SCORE_FLOOR, never out of the wheel', () => {
  const wheel = new RouletteWheel<number>();
  wheel.upsert(1);
  wheel.upsert(2, 0.01);
  wheel.setEligible(1, true);
  wheel.reward(1, -0.5);
  assert.equal(wheel.score(1), 0.5);
  wheel.reward(1, -1);
  assert.equal(wheel.score(1), SCORE_FLOOR, 'no lower than the floor');
  wheel.reward(1, -1);
  assert.equal(wheel.score(1), SCORE_FLOOR);
  assert.equal(wheel.draw(() => 0.99), 1, 'still drawn when alone');
  wheel.reward(2, -1);
  assert.equal(wheel.score(2), 0.01, 'a score under the floor is not raised by a penalty');
  wheel.reward(1, 2);
  assert.equal(wheel.score(1), SCORE_FLOOR + 2, 'a reward adds as before');
});

test('a draw whose point rounds up to the total lands on the last live slot, not on a dead one past it', () => {
  // random() * total can round up to the total itself; the slots after the last live one are
  // domains with no slice (score 0 or not eligible) and must never come out.
  const w = new FenwickWheel(8);
  [2, 0, 3, 1, 0, 0, 0, 0].forEach((x, i) => w.set(i, x));
  assert.equal(w.find(w.total()), 3);
  assert.equal(w.draw(() => 1), 3);
  const wheel = new RouletteWheel<string>();
  for (const d of ['a', 'b', 'c']) wheel.upsert(d, 1);
  wheel.setEligible('a', true);
  assert.equal(wheel.draw(() => 1), 'a', 'the only eligible domain, even at the top of the range');
});

test('weights that cancel out leave an exact zero total: nothing is drawn', () => {
  const w = new FenwickWheel(4);
  w.set(0, 0.1);
  w.set(1, 0.2);
  w.set(0, 0);
  w.set(1, 0);
  assert.equal(w.total(), 0, 'no float dust left (0.1 + 0.2 - 0.1 - 0.2 is not 0 in doubles)');
  assert.equal(w.draw(() => 0.5), -1);
});

test('a slot at exactly the capacity grows the wheel; a slot past the end weighs 0', () => {
  const w = new FenwickWheel(4);
  w.set(4, 2);
  assert.equal(w.weight(4), 2);
  assert.equal(w.find(1), 4);
  assert.equal(w.weight(w.capacity), 0);
  assert.equal(w.weight(1000), 0);
});

test('several domains, none eligible: nothing is drawn', () => {
  const w = new FenwickWheel(4);
  assert.equal(w.draw(() => 0.5), -1);
  const wheel = new RouletteWheel<string>();
  for (const d of ['a', 'b', 'c']) wheel.upsert(d, 5);
  for (const r of [0, 0.5, 0.999]) assert.equal(wheel.draw(() => r), undefined);
});

test('a new score for a domain that is not eligible does not put it on the wheel', () => {
  const wheel = new RouletteWheel<string>();
  wheel.upsert('a', 1);
  wheel.upsert('b', 1);
  wheel.setEligible('b', true);
  wheel.upsert('a', 7);
  wheel.reward('a', 1);
  assert.equal(wheel.eligibleTotal(), 1);
  for (const r of [0, 0.5, 0.999]) assert.equal(wheel.draw(() => r), 'b');
  wheel.setEligible('a', true);
  assert.equal(wheel.eligibleTotal(), 9, 'it comes back with the score it earned meanwhile');
});

test('a domain the wheel does not know is neither made eligible nor rewarded into it', () => {
  const wheel = new RouletteWheel<string>();
  wheel.upsert('a', 1);
  wheel.setEligible('a', true);
  wheel.setEligible('ghost', true);
  wheel.reward('ghost', 3);
  assert.equal(wheel.has('ghost'), false);
  assert.equal(wheel.score('ghost'), undefined);
  assert.equal(wheel.eligibleTotal(), 1);
  assert.equal(wheel.size, 1);
});

test('top(n) gives at most n domains, the highest scores first', () => {
  const wheel = new RouletteWheel<string>();
  [['a', 1], ['b', 4], ['c', 2], ['d', 3]].forEach(([k, s]) => wheel.upsert(k as string, s as number));
  assert.deepEqual(wheel.top(2).map((t) => [t.key, t.score, t.share]), [['b', 4, 0.4], ['d', 3, 0.3]]);
  assert.equal(wheel.top(10).length, 4);
});
