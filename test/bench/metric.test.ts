import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageCounts, pagePrecision, pageRecall, paragraphScore, score, shingles, tokens } from '../../bench/metric.js';

test('tokens are Unicode \\w+ runs: letters, digits, underscore; punctuation and marks split', () => {
  assert.deepEqual(tokens('It’s 2019: naïve_café, Ελλάδα—東京!'), ['It', 's', '2019', 'naïve_café', 'Ελλάδα', '東京']);
  assert.deepEqual(tokens(' … '), []);
});

test('shingles are 4-gram multisets; fewer than 4 tokens make one shorter shingle; none make none', () => {
  assert.deepEqual([...shingles('a b c d e')], [['a b c d', 1], ['b c d e', 1]]);
  assert.deepEqual([...shingles('a b c d a b c d')], [['a b c d', 2], ['b c d a', 1], ['c d a b', 1], ['d a b c', 1]]);
  assert.deepEqual([...shingles('one two')], [['one two', 1]]);
  assert.equal(shingles('').size, 0);
});

test('per-page counts are normalised to sum 1', () => {
  // Truth has a b c d, b c d e, c d e f; the prediction b c d e, c d e f, d e f x: 2 TP, 1 FP, 1 FN.
  const c = pageCounts('a b c d e f', 'b c d e f x');
  assert.deepEqual(c, { tp: 2 / 4, fp: 1 / 4, fn: 1 / 4 });
  assert.equal(pagePrecision(c), 2 / 3);
  assert.equal(pageRecall(c), 2 / 3);
  // Repeats count: predicting a paragraph twice is a false positive the second time.
  assert.deepEqual(pageCounts('a b c d', 'a b c d. a b c d'), { tp: 1 / 5, fp: 4 / 5, fn: 0 });
});

test('edge cases follow evaluate.py: exact match is 1/1, empty prediction is recall 0', () => {
  assert.equal(pagePrecision(pageCounts('x y z w', 'x y z w')), 1);
  const empty = pageCounts('x y z w', '');
  assert.deepEqual(empty, { tp: 0, fp: 0, fn: 1 });
  assert.equal(pagePrecision(empty), 0);
  assert.equal(pageRecall(empty), 0);
});

test('corpus score: macro means over pages, empty-prediction pages left out of precision, F1 of the means', () => {
  const s = score([
    { truth: 'a b c d e f', predicted: 'a b c d e f' }, // P 1, R 1
    { truth: 'a b c d e f', predicted: 'b c d e f x' }, // P 2/3, R 2/3
    { truth: 'a b c d e f', predicted: '' }, // not in P; R 0
    { truth: '', predicted: '' }, // in neither
  ]);
  assert.equal(s.precision, (1 + 2 / 3) / 2);
  assert.equal(s.recall, (1 + 2 / 3 + 0) / 3);
  assert.equal(s.f1, (2 * s.precision * s.recall) / (s.precision + s.recall));
  assert.equal(s.accuracy, 2 / 4);
  assert.equal(s.pages, 4);
});

test('paragraph level: a predicted line is right with half its shingles in the truth; a true line found with half in the prediction', () => {
  const truth = 'the keeper lit the lamp at dusk\nthe boats came round the point\nshort';
  assert.deepEqual(paragraphScore([{ truth, predicted: 'the keeper lit the lamp at dusk\nsubscribe to our daily letter now\nshort' }]), { precision: 2 / 3, recall: 2 / 3 });
  // Half of "the boats came round the point" (shingles 2 of 3 kept) counts; a page with nothing predicted adds to recall only.
  const half = paragraphScore([{ truth, predicted: 'the boats came round the\n\n' }, { truth: 'a b c d', predicted: '' }]);
  assert.deepEqual(half, { precision: 1, recall: 1 / 4 });
  assert.deepEqual(paragraphScore([]), { precision: 0, recall: 0 });
  assert.deepEqual(paragraphScore([{ truth: 'Baar, Switzerland. The keeper lit the lamp.', predicted: 'BAAR\nswitzerland the\nZurich' }]), { precision: 0, recall: 0 }, 'case counts');
  assert.deepEqual(paragraphScore([{ truth: 'Baar, Switzerland. The keeper lit the lamp.', predicted: 'Baar\nSwitzerland. The\nthe lamp\nZurich' }]), { precision: 3 / 4, recall: 0 }, 'a short line is right where its words stand in that order');
});
