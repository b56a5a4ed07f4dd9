import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { hostOf, normalizeUrl, originOf } from '../../src/web/url.js';
import { needsShared, sharedPath } from '../support/shared.js';

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

const failure = (raw: string, base?: string, maxLength?: number) => {
  const r = normalizeUrl(raw, base, maxLength === undefined ? {} : { maxLength });
  assert.ok(!r.ok, `expected ${raw} to be refused`);
  return `${r.reason}: ${r.detail}`;
};

test('a host of dots alone is no host, whatever the dots', () => {
  assert.equal(failure('http://./'), 'bad-url: no host name');
  assert.equal(failure('https://..:8080/x'), 'bad-url: no host name');
  assert.equal(failure('/x', 'http://./'), 'bad-url: no host name');
  assert.equal(norm('http://a.example../x'), 'http://a.example/x', 'every trailing dot goes');
  assert.equal(norm('http://[::1]:8080/a?#f'), 'http://[::1]:8080/a');
});

test('whitespace a page leaves around a link, the no-break space too, is not part of it', () => {
  assert.equal(norm(' \t http://a.example/x \n'), 'http://a.example/x');
  assert.equal(norm('\u00a0http://a.example/x\u00a0'), 'http://a.example/x');
  assert.equal(norm('\u00a0../y\u00a0', 'http://a.example/d/x'), 'http://a.example/y');
});

test('each refusal says why, with the input cut short and quoted', () => {
  assert.equal(failure('mailto:a@b.example'), 'bad-scheme: scheme mailto is not http or https');
  assert.equal(failure('http://exa mple.test/'), 'bad-url: cannot parse "http://exa mple.test/"');
  assert.equal(failure(`http://[${'x'.repeat(300)}`), `bad-url: cannot parse "http://[${'x'.repeat(192)}"`);
  assert.equal(failure('http://a\u0000.test/'), 'bad-url: cannot parse "http://a\\u0000.test/"', 'a control character is shown escaped');
});

test('the length cap: a URL of exactly the cap is kept; one past it, or input four times the cap, is refused unparsed', () => {
  const at = (n: number) => `http://a.example/${'x'.repeat(n - 'http://a.example/'.length)}`;
  assert.equal(normalizeUrl(at(30), undefined, { maxLength: 30 }).ok, true);
  assert.equal(failure(at(31), undefined, 30), 'too-long: 31 characters, cap 30');
  const padded = normalizeUrl(at(30).padEnd(120), undefined, { maxLength: 30 });
  assert.equal(padded.ok && padded.url, at(30), 'input up to four times the cap is parsed, and trimmed');
  assert.equal(failure(at(30).padEnd(121), undefined, 30), 'too-long: 121 characters, cap 30');
  assert.equal(failure('%'.repeat(121), undefined, 30), 'too-long: 121 characters, cap 30', 'not even parsed');
});

/**
 * The normal form spelt out, every step taken on every URL, as normalizeUrl did before it let the
 * URLs already in that form through as parsed.
 */
function longHand(raw: string, base: string): string {
  const u = new URL(raw.trim(), base);
  const percent = (x: string) => x.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
  u.username = '';
  u.password = '';
  u.hash = '';
  if (u.hostname.endsWith('.')) u.hostname = u.hostname.replace(/\.+$/, '');
  u.pathname = percent(u.pathname);
  u.search = u.search === '' ? '' : percent(u.search);
  return u.href;
}

const agreesWithLongHand = (raws: string[], base: string) => {
  let compared = 0;
  for (const raw of raws) {
    const n = normalizeUrl(raw, base);
    if (!n.ok) continue;
    assert.equal(n.url, longHand(raw, base), `${JSON.stringify(raw)} against ${base}`);
    assert.equal(n.parsed.href, n.url, 'the parsed URL is the one returned');
    compared++;
  }
  return compared;
};

test('the URLs let through as parsed are those every step would leave as they are', () => {
  const tricky = ['HTTP://A.Example:80/x', 'http://a.example/ä ö?q=ü \'"', 'http://a.example/a\\b/../c', 'http://a.example/p?',
    'http://a.example/p#', 'http://a.example/p?#', 'http://a.example./p', 'http://user:pw@a.example/p', 'http://[::1]/p?x=%7e',
    'http://xn--bcher-kva.example/', 'http://bücher.example/ä', 'http://a.example/%41', 'http://a.example/p?q=%2f', 'http://1.2.3.4:8080',
    'http://a.example/\t\n/x', 'https://a.example:443?', '//b.example/x#y', '?only=query', '#only-fragment', 'http://a.example/p?a=1&b=2#c',
    'http://user@a.example/p', 'http://:pw@a.example/p', 'http://a.example/p?to=x@y'];
  assert.equal(agreesWithLongHand(tricky, 'http://base.example/dir/page.html'), tricky.length);
});

const SHARED_LINKS = needsShared('corpus', 'data/extraction/html');

test('on the links of the shared corpus and extraction pages, the shortcut gives what every step gives', { skip: SHARED_LINKS }, () => {
  const hrefs = (html: string) => [...html.matchAll(/\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1]!);
  let compared = 0;
  const corpus = sharedPath('corpus');
  for (const entry of readdirSync(corpus, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.x?html?$/.test(entry.name)) continue;
    compared += agreesWithLongHand(hrefs(readFileSync(join(entry.parentPath, entry.name), 'utf8')), `http://corpus.example/${entry.name}`);
  }
  const pages = sharedPath('data/extraction/html');
  for (const name of readdirSync(pages).filter((n) => n.endsWith('.html.gz'))) {
    compared += agreesWithLongHand(hrefs(gunzipSync(readFileSync(join(pages, name))).toString('utf8')), 'https://news.example/2020/story.html?id=1');
  }
  assert.ok(compared > 10_000, `compared ${compared} links`);
});

test('a user name and password are dropped: they name no other page, and kept they would be sent on and printed', () => {
  for (const raw of ['http://user:pw@a.example/p', 'http://user@a.example/p', 'http://:pw@a.example/p', 'http://user:pw@a.example/p#x']) {
    const n = normalizeUrl(raw);
    assert.ok(n.ok);
    assert.equal(n.url, 'http://a.example/p', raw);
  }
  const relative = normalizeUrl('/q', 'http://user:pw@a.example/p');
  assert.ok(relative.ok);
  assert.equal(relative.url, 'http://a.example/q', 'nor inherited from the page a link was found on');
  const mail = normalizeUrl('http://a.example/p?to=x@y');
  assert.ok(mail.ok);
  assert.equal(mail.url, 'http://a.example/p?to=x@y', 'an @ in the query is not a user name');
});
