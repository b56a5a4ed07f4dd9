import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOUND_SHARE, DelayWatch, MIN_WINDOW_MS } from '../../src/walk/delay-watch.js';

/** The share of a window spent waiting on a host's delay, on a clock the test moves. */

test('a window mostly spent waiting on a delay is bounded by it, and names the host waited on longest', () => {
  const watch = new DelayWatch(0);
  watch.waiting('a.test', 0);
  watch.waiting(undefined, 300);
  watch.waiting('b.test', 300);
  watch.waiting(undefined, 900);
  assert.deepEqual(watch.read(1000), { share: 0.9, host: 'b.test', hosts: 2 });
});

test('a window mostly spent on the network, or on other waits, is not', () => {
  const watch = new DelayWatch(0);
  watch.waiting('a.test', 0);
  watch.waiting(undefined, 400);
  assert.equal(watch.read(1000), undefined, `0.4 < ${BOUND_SHARE}`);
  watch.waiting(undefined, 1000);
  assert.equal(watch.read(2000), undefined, 'no wait at all');
});

test('a window after a bounded one, with no wait going at its read, starts with no wait', () => {
  const watch = new DelayWatch(0);
  watch.waiting('a.test', 0);
  watch.waiting(undefined, 900);
  assert.deepEqual(watch.read(1000), { share: 0.9, host: 'a.test', hosts: 1 });
  assert.equal(watch.read(2000), undefined, 'nothing was waited on since');
});

test('a wait still going counts up to the read and goes on in the next window', () => {
  const watch = new DelayWatch(0);
  watch.waiting('slow.test', 200);
  assert.deepEqual(watch.read(1000), { share: 0.8, host: 'slow.test', hosts: 1 });
  watch.waiting(undefined, 1500);
  assert.deepEqual(watch.read(2000), { share: 0.5, host: 'slow.test', hosts: 1 });
});

test('a read sooner than a window keeps the last verdict', () => {
  const watch = new DelayWatch(0);
  watch.waiting('a.test', 0);
  assert.equal(watch.read(MIN_WINDOW_MS - 1), undefined, 'nothing known yet');
  assert.deepEqual(watch.read(MIN_WINDOW_MS), { share: 1, host: 'a.test', hosts: 1 });
  watch.waiting(undefined, MIN_WINDOW_MS);
  assert.deepEqual(watch.read(MIN_WINDOW_MS + 10), { share: 1, host: 'a.test', hosts: 1 }, 'too soon to change its mind');
});
