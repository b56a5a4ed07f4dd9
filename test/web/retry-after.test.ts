import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetryAfter, RETRY_AFTER_MAX_MS } from '../../src/web/retry-after.js';

test('Retry-After: seconds, HTTP dates, past dates, junk', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('-5', now), undefined);
  assert.equal(parseRetryAfter('soon', now), undefined);
  // Seconds are whole digits and nothing else: a fraction, or digits with words on either side, are no delay.
  for (const junk of ['1.5', '12abc', 'abc12', '1e3', '0x10']) assert.equal(parseRetryAfter(junk, now), undefined, junk);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});

test('Retry-After: a wait past the bound is the bound, however it is written', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  assert.equal(RETRY_AFTER_MAX_MS, 10 * 60_000);
  assert.equal(parseRetryAfter('99999999999999999999', now), RETRY_AFTER_MAX_MS);
  assert.equal(parseRetryAfter('999999999', now), RETRY_AFTER_MAX_MS);
  assert.equal(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', now), RETRY_AFTER_MAX_MS);
  assert.equal(parseRetryAfter(String(RETRY_AFTER_MAX_MS / 1000), now), RETRY_AFTER_MAX_MS);
  assert.equal(parseRetryAfter('3600', now, 3_600_000), 3_600_000, 'a caller may bound it otherwise');
});
