import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WalkOutcome } from '../../src/walk/outcome.js';
import { dispose, type RetryPolicy } from '../../src/walk/retry.js';

const policy: RetryPolicy = { maxRetries: 3, backoff: (n) => 1000 * n };
const NOW = 1_000_000;

test('a transient failure spends a try and waits for Retry-After or the backoff; past the limit it is final', () => {
  const busy: WalkOutcome = { kind: 'http-error', status: 503, retryAt: NOW + 7000 };
  assert.deepEqual(dispose(busy, 0, policy, NOW), { status: 'pending', attempted: true, notBefore: NOW + 7000 });
  assert.deepEqual(dispose({ kind: 'failed', failure: 'reset' }, 1, policy, NOW), { status: 'pending', attempted: true, notBefore: NOW + 2000 });
  assert.deepEqual(dispose(busy, 3, policy, NOW), { status: 'failed' });
  assert.deepEqual(dispose({ kind: 'http-error', status: 404 }, 0, policy, NOW), { status: 'failed' });
});

test('robots.txt that could not be had spends none of the link\'s tries, however many it has spent', () => {
  const unreachable = (failures: number): WalkOutcome => ({ kind: 'robots', reason: 'robots.txt unreachable (HTTP 503)', retryAt: NOW + 300_000, failures });
  for (const attempts of [0, 2, 3]) {
    assert.deepEqual(dispose(unreachable(1), attempts, policy, NOW), { status: 'pending', attempted: false, notBefore: NOW + 300_000 }, `after ${attempts} tries`);
  }
  assert.deepEqual(dispose(unreachable(3), 0, policy, NOW).status, 'pending');
  assert.deepEqual(dispose(unreachable(4), 0, policy, NOW), { status: 'excluded' }, 'robots.txt failed 1 + maxRetries times in a row');
  assert.deepEqual(dispose({ kind: 'robots', reason: 'disallow: / at line 2' }, 0, policy, NOW), { status: 'excluded' });
});
