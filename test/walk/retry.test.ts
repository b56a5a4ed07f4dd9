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

test('only the way to the server fails transiently: a timeout, a reset, a refused or broken connection, a resolver in trouble', () => {
  for (const failure of ['timeout', 'reset', 'refused', 'network']) {
    assert.equal(dispose({ kind: 'failed', failure }, 0, policy, NOW).status, 'pending', failure);
  }
  assert.equal(dispose({ kind: 'failed', failure: 'dns', detail: 'getaddrinfo EAI_AGAIN e.org' }, 0, policy, NOW).status, 'pending');
  // What the URL or the server's answer is does not change on a second try.
  for (const failure of ['dns', 'too-large', 'refused-address', 'tls', 'redirect-loop', 'too-many-redirects', 'bad-content-type', 'bad-url', 'decompression', 'scope']) {
    assert.equal(dispose({ kind: 'failed', failure, detail: 'getaddrinfo ENOTFOUND e.org' }, 0, policy, NOW).status, 'failed', failure);
  }
  for (const status of [400, 401, 403, 404, 410, 451, 501]) {
    assert.equal(dispose({ kind: 'http-error', status }, 0, policy, NOW).status, 'failed', String(status));
  }
  for (const status of [408, 425, 429, 500, 502, 503, 504]) {
    assert.equal(dispose({ kind: 'http-error', status }, 0, policy, NOW).status, 'pending', String(status));
  }
});
