import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStrategy } from '../../src/walk/strategies/strategy.js';

/**
 * The baselines the wheel is measured against (bench wheel, focus: roulette over bfs). A ratio
 * over bfs is only as good as bfs, so its order is pinned here, as is dfs's.
 */

const draws = (s: ReturnType<typeof createStrategy>, n: number) => Array.from({ length: n }, () => s.next(() => 0.5));

function withDomains(name: 'bfs' | 'dfs' | 'roulette', ids: number[]) {
  const s = createStrategy(name);
  for (const id of ids) {
    s.add(id, 1);
    s.setEligible(id, true);
  }
  return s;
}

test('bfs serves the domains round-robin in the order they were found, skipping those not ready', () => {
  const s = withDomains('bfs', [1, 2, 3]);
  assert.equal(s.linkOrder, 'discovery', 'oldest link first');
  assert.deepEqual(draws(s, 6), [1, 2, 3, 1, 2, 3]);
  s.setEligible(2, false);
  assert.deepEqual(draws(s, 4), [1, 3, 1, 3]);
  s.add(4, 1);
  s.setEligible(4, true);
  s.setEligible(2, true);
  assert.deepEqual(draws(s, 4), [2, 1, 3, 4], 'the least recently served first: one that waited comes back before those served meanwhile; a new one last');
});

test('dfs stays with the newest ready domain and takes its newest link first', () => {
  const s = withDomains('dfs', [1, 2, 3]);
  assert.equal(s.linkOrder, 'newest');
  assert.deepEqual(draws(s, 3), [3, 3, 3]);
  s.setEligible(3, false);
  assert.deepEqual(draws(s, 2), [2, 2]);
  s.add(9, 1);
  assert.deepEqual(draws(s, 1), [2], 'found but not ready yet');
  s.setEligible(9, true);
  assert.deepEqual(draws(s, 1), [9]);
  s.setEligible(9, false);
  s.setEligible(2, false);
  assert.deepEqual(draws(s, 2), [1, 1], 'the oldest, when it alone is ready');
});

test('a domain added twice is one domain with its first score', () => {
  for (const name of ['bfs', 'dfs', 'roulette'] as const) {
    const s = withDomains(name, [1, 2]);
    s.add(1, 7);
    assert.equal(s.score(1), 1, name);
    if (name === 'bfs') assert.deepEqual(draws(s, 4), [1, 2, 1, 2]);
  }
});

test('nothing ready: no domain', () => {
  for (const name of ['bfs', 'dfs', 'roulette'] as const) {
    const s = withDomains(name, [1, 2]);
    s.setEligible(1, false);
    s.setEligible(2, false);
    assert.equal(s.next(() => 0.5), undefined, name);
    assert.equal(s.isEligible(1), false, name);
    s.setEligible(2, true);
    assert.equal(s.isEligible(2), true, name);
    assert.equal(s.next(() => 0.5), 2, name);
  }
});

test('the baselines keep scores to report them; they steer nothing', () => {
  const s = withDomains('bfs', [1, 2]);
  s.reward(2, 5);
  assert.equal(s.score(2), 6);
  s.reward(1, -3);
  assert.equal(s.score(1), 0, 'no lower than 0');
  assert.deepEqual(draws(s, 4), [1, 2, 1, 2]);
  s.setScore(2, 4);
  assert.equal(s.score(2), 4);
  s.setScore(5, 4);
  assert.equal(s.score(5), undefined, 'a domain not added is not made by a score');
});

test('the wheel takes the store\'s score for a domain it has, and no other', () => {
  const s = withDomains('roulette', [1]);
  s.setScore(1, 3);
  assert.equal(s.score(1), 3);
  s.setScore(2, 3);
  assert.equal(s.score(2), undefined);
  assert.equal(s.linkOrder, 'discovery');
  s.reward(1, 1);
  assert.equal(s.score(1), 4);
});
