import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goalLine, perRound } from '../../bench/goals.js';

test('a goal is met when every round meets it, not met when none does, and counted in between', () => {
  assert.equal(goalLine({ name: 'SQLite of fetch + action', values: [0.61, 0.6, 0.65], atLeast: 0.6, digits: 2 }),
    '- SQLite of fetch + action ≥ 0.6: met (0.60–0.65 over 3 rounds)');
  assert.equal(goalLine({ name: 'SQLite of fetch + action', values: [0.41, 0.45], atLeast: 0.6, digits: 2 }),
    '- SQLite of fetch + action ≥ 0.6: not met (0.41–0.45 over 2 rounds)');
  assert.equal(goalLine({ name: 'server CPU', values: [0.92, 1.08], atMost: 1, digits: 2, unit: 'ms a page' }),
    '- server CPU ≤ 1 ms a page: met in 1 of 2 rounds (0.92–1.08 ms a page over 2 rounds)');
  assert.equal(goalLine({ name: 'server CPU', values: [1], atMost: 1, digits: 2 }), '- server CPU ≤ 1: met (1.00 over 1 round)');
  assert.equal(goalLine({ name: 'x', values: [], atLeast: 1, digits: 1 }), '- x ≥ 1: not measured');
  assert.equal(goalLine({ name: 'start-up', values: [1.1, 1.6, 1.2], atMost: 1.4, digits: 2, unit: '×', judge: 'median' }),
    '- start-up ≤ 1.4 ×: met by the median, 1.20 × (1.10–1.60 × over 3 rounds)');
  assert.equal(goalLine({ name: 'start-up', values: [1.5, 1.3, 1.6], atMost: 1.4, digits: 2, judge: 'median' }),
    '- start-up ≤ 1.4: not met by the median, 1.50 (1.30–1.60 over 3 rounds)');
  assert.throws(() => goalLine({ name: 'x', values: [1], digits: 1 }), /atLeast or atMost/);
  assert.throws(() => goalLine({ name: 'x', values: [1], atLeast: 1, atMost: 2, digits: 1 }), /atLeast or atMost/);
});

test('rounds are paired: each round\'s ratio, not a ratio of medians', () => {
  assert.deepEqual(perRound([10, 30], [20, 30]), [0.5, 1]);
  assert.throws(() => perRound([1], [1, 2]), /rounds differ/);
});
