import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostOf, normalizeUrl, originOf } from '../../src/web/url.js';

const norm = (raw: string, base?: string) => {
  const r = normalizeUrl(raw, base);
  assert.ok(r.ok, `expected ${raw} to normalize`);
  return r.url;
};

test('host lower case, default port dropped, fragment dropped, empty path becomes /', () => {
  assert.equal(norm('HTTP://Example.COM:80#top'), 'http://example.com/');
  assert.equal(norm('https://example.com:443/a#x'), 'https://example.com/a');
  assert.equal(norm('http://example.com:8080/a'), 'http://example.com:8080/a');
});

test('percent-encoding: unreserved characters decoded, hex digits upper case, reserved kept', () => {
  assert.equal(norm('http://a.example/%7euser/%41b%2fc?q=%7e%2f%3d'), 'http://a.example/~user/Ab%2Fc?q=~%2F%3D');
});

test('dot segments resolve, query order is kept, a bare ? goes', () => {
  assert.equal(norm('http://a.example/x/../y/./z?b=2&a=1'), 'http://a.example/y/z?b=2&a=1');
  assert.equal(norm('http://a.example/p?'), 'http://a.example/p');
});

test('trailing dot on the host is dropped', () => {
  assert.equal(norm('http://example.com./'), 'http://example.com/');
});

test('relative links resolve against the base', () => {
  assert.equal(norm('../b.html#s', 'http://a.example/dir/sub/a.html'), 'http://a.example/dir/b.html');
  assert.equal(norm('//other.example/x', 'https://a.example/'), 'https://other.example/x');
});

test('non-http schemes, junk and long URLs are typed failures', () => {
  const mail = normalizeUrl('mailto:a@b.example');
  assert.deepEqual(mail.ok ? null : mail.reason, 'bad-scheme');
  const js = normalizeUrl('javascript:alert(1)', 'http://a.example/');
  assert.deepEqual(js.ok ? null : js.reason, 'bad-scheme');
  const junk = normalizeUrl('http://');
  assert.deepEqual(junk.ok ? null : junk.reason, 'bad-url');
  const long = normalizeUrl(`http://a.example/${'x'.repeat(2100)}`);
  assert.deepEqual(long.ok ? null : long.reason, 'too-long');
  const short = normalizeUrl(`http://a.example/${'x'.repeat(40)}`, undefined, { maxLength: 30 });
  assert.deepEqual(short.ok ? null : short.reason, 'too-long');
});

test('normalizing twice changes nothing', () => {
  for (const raw of ['HTTP://A.example:80/%7e/%2f?x=%41#f', 'https://b.example/a b?c d', 'http://[::1]:80/']) {
    const once = norm(raw);
    assert.equal(norm(once), once);
  }
});

test('hostOf and originOf', () => {
  assert.equal(hostOf('http://Sherlock.test:8080/a'), 'sherlock.test');
  assert.equal(hostOf('http://[::1]:8080/'), '::1');
  assert.equal(originOf('http://Sherlock.test:8080/a?b'), 'http://sherlock.test:8080');
});
