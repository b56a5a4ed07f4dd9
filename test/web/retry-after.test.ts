import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetryAfter } from '../../src/web/retry-after.js';

test('Retry-After: seconds, HTTP dates, past dates, junk', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('-5', now), undefined);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});
