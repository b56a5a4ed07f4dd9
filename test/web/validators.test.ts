import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ETAG_MAX_CHARS, HTTP_DATE_MAX_CHARS, httpDateHeader, readHttpDate, validatorsOf } from '../../src/web/validators.js';

test('an HTTP date is read in its three forms, within 1970–9999 and 64 characters', () => {
  const at = Date.UTC(1994, 10, 6, 8, 49, 37);
  assert.equal(readHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), at);
  assert.equal(readHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), at);
  assert.equal(readHttpDate('Sun Nov  6 08:49:37 1994'), at);
  assert.equal(readHttpDate('Fri, 31 Dec 9999 23:59:59 GMT'), Date.UTC(9999, 11, 31, 23, 59, 59));
  assert.equal(readHttpDate('Sat, 01 Jan 10000 00:00:00 GMT'), undefined, 'a fifth digit of year');
  assert.equal(readHttpDate('Sat, 01 Jan 275759 00:00:00 GMT'), undefined);
  assert.equal(readHttpDate('Wed, 31 Dec 1969 23:59:59 GMT'), undefined, 'before the epoch');
  assert.equal(readHttpDate('0'), undefined, 'Expires: 0 is no date');
  assert.equal(readHttpDate('1700000000'), undefined, 'nor are digits alone');
  assert.equal(readHttpDate(`Sun, 06 Nov 1994 08:49:37 GMT${' '.repeat(HTTP_DATE_MAX_CHARS)}`), undefined, 'too long to keep');
  assert.equal(readHttpDate('soon'), undefined);
  assert.equal(readHttpDate(undefined), undefined);
});

test('validators are kept only when they fit: the date as the server wrote it, an ETag up to its column', () => {
  const lm = 'Sun, 06 Nov 1994 08:49:37 GMT';
  assert.deepEqual(validatorsOf({ etag: '"x"', 'last-modified': lm }), { etag: '"x"', lastModified: lm });
  assert.deepEqual(validatorsOf({ etag: `"${'e'.repeat(ETAG_MAX_CHARS)}"`, 'last-modified': lm }), { lastModified: lm });
  assert.deepEqual(validatorsOf({ etag: '"x"', 'last-modified': 'yesterday' }), { etag: '"x"' });
  assert.equal(validatorsOf({ 'content-type': 'text/html' }), undefined);
  assert.equal(httpDateHeader({ expires: 'Thu, 01 Jan 1970 00:00:00 GMT' }, 'expires'), 'Thu, 01 Jan 1970 00:00:00 GMT');
  assert.equal(httpDateHeader({ expires: '-1' }, 'expires'), undefined);
});
