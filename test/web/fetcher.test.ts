import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { Fetcher } from '../../src/web/fetcher.js';
import type { Answer, FetchOutcome } from '../../src/web/outcome.js';
import { noDns, SITES, startTestWeb, type TestWeb } from '../support/testweb.js';
import { sharedPath, needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

let web: TestWeb;
let fetcher: Fetcher;

before(async () => {
  web = await startTestWeb();
  fetcher = new Fetcher({ resolve: web.resolve, lookup: noDns, timeoutMs: 5000 });
});
after(async () => {
  await fetcher.close();
  await web.close();
});

function expectKind<K extends FetchOutcome['kind']>(o: FetchOutcome, kind: K): Extract<FetchOutcome, { kind: K }> {
  assert.equal(o.kind, kind, `outcome: ${JSON.stringify({ ...o, body: undefined, text: undefined })}`);
  return o as Extract<FetchOutcome, { kind: K }>;
}

test('a corpus page arrives whole, decoded, with its type, size and timing', { skip: SHARED }, async () => {
  const o = expectKind(await fetcher.fetch(web.url('sherlock.test', '/toc.xhtml')), 'ok');
  const size = statSync(sharedPath('corpus', SITES['sherlock.test']!.dir, 'toc.xhtml')).size;
  assert.equal(o.status, 200);
  assert.equal(o.contentType, 'application/xhtml+xml');
  assert.equal(o.bytes, size);
  assert.equal(o.truncated, false);
  assert.equal(o.charset, 'UTF-8');
  assert.match(o.text ?? '', /The Adventures of Sherlock Holmes/);
  assert.equal(o.finalUrl, o.url);
  assert.ok(o.timing.headersMs !== undefined && o.timing.headersMs <= o.timing.totalMs);
});

test('requests name the crawler: User-Agent with contact, From, Referer; Host keeps the name', async () => {
  const f = new Fetcher({ resolve: web.resolve, lookup: noDns, from: 'crawler@example.org' });
  try {
    web.page('alpha.test', '/who.html', '<p>who</p>');
    await f.fetch(web.url('alpha.test', '/who.html'), { referer: 'http://hub.test/' });
    const h = web.lastHeaders('alpha.test', '/who.html')!;
    assert.equal(h['user-agent'], 'anwc/0.1 (+https://github.com/anwc/anwc)');
    assert.equal(h.from, 'crawler@example.org');
    assert.equal(h.referer, 'http://hub.test/');
    assert.equal(h.host, `alpha.test:${web.port}`);
  } finally {
    await f.close();
  }
  const g = new Fetcher({ resolve: web.resolve, lookup: noDns, userAgent: 'narrbot/2.0', contact: 'mailto:ops@example.org' });
  try {
    await g.fetch(web.url('alpha.test', '/who.html'));
    assert.equal(web.lastHeaders('alpha.test', '/who.html')!['user-agent'], 'narrbot/2.0 (+mailto:ops@example.org)');
    assert.equal(web.lastHeaders('alpha.test', '/who.html')!.from, undefined);
  } finally {
    await g.close();
  }
});

test('HEAD gets headers and no body', { skip: SHARED }, async () => {
  const o = expectKind(await fetcher.fetch(web.url('debian.test', '/index.html'), { method: 'HEAD' }), 'ok');
  assert.equal(o.method, 'HEAD');
  assert.equal(o.bytes, 0);
  assert.equal(o.text, undefined);
  assert.ok(Number(o.headers['content-length']) > 1000);
});

test('conditional GET: the stored ETag brings 304, recorded as not-modified', { skip: SHARED }, async () => {
  const first = expectKind(await fetcher.fetch(web.url('timemachine.test', '/toc.xhtml')), 'ok');
  const etag = first.headers.etag;
  assert.ok(etag);
  const again = await fetcher.fetch(web.url('timemachine.test', '/toc.xhtml'), { validators: { etag, lastModified: first.headers['last-modified'] } });
  expectKind(again, 'not-modified');
  assert.equal(web.lastHeaders('timemachine.test', '/toc.xhtml')!['if-modified-since'], first.headers['last-modified']);
});

test('gzip, deflate (wrapped and raw) and br bodies are decoded', async () => {
  const html = `<html><body>${'<p>It was a dark and stormy night.</p>'.repeat(200)}</body></html>`;
  for (const encoding of ['gzip', 'deflate', 'deflate-raw', 'br'] as const) {
    web.page('zip.test', `/${encoding}.html`, html, { encoding });
    const o = expectKind(await fetcher.fetch(web.url('zip.test', `/${encoding}.html`)), 'ok');
    assert.equal(o.text, html, encoding);
    assert.ok(o.wireBytes < o.bytes, encoding);
  }
});

test('an unknown or corrupt encoding is a decompression failure', async () => {
  web.page('zip.test', '/zstd.html', 'abc', { headers: { 'content-encoding': 'zstd' } });
  assert.equal(expectKind(await fetcher.fetch(web.url('zip.test', '/zstd.html')), 'failed').failure, 'decompression');
  web.page('zip.test', '/corrupt.html', 'this is not gzip at all', { headers: { 'content-encoding': 'gzip' } });
  assert.equal(expectKind(await fetcher.fetch(web.url('zip.test', '/corrupt.html')), 'failed').failure, 'decompression');
});

test('content types outside the accept list are refused before the body is read', { skip: SHARED }, async () => {
  const css = expectKind(await fetcher.fetch(web.url('diveintopython.test', '/dip3.css')), 'failed');
  assert.equal(css.failure, 'bad-content-type');
  assert.equal(css.status, 200);
  const ok = expectKind(await fetcher.fetch(web.url('diveintopython.test', '/dip3.css'), { accept: ['text/*'] }), 'ok');
  assert.ok(ok.bytes > 0);
});

test('redirects are followed, recorded hop by hop, and each target is asked about', async () => {
  web.page('alpha.test', '/old', 'moved', { status: 301, headers: { location: '/mid' } });
  web.page('alpha.test', '/mid', 'moved', { status: 307, headers: { location: `http://beta.test:${web.port}/new#frag` } });
  web.page('beta.test', '/new', '<p>new home</p>');
  const asked: string[] = [];
  const o = expectKind(
    await fetcher.fetch(web.url('alpha.test', '/old'), { allowUrl: (u) => (asked.push(u), { allowed: true }) }),
    'ok',
  );
  assert.deepEqual(o.redirects, [
    { url: web.url('alpha.test', '/old'), status: 301 },
    { url: web.url('alpha.test', '/mid'), status: 307 },
  ]);
  assert.equal(o.finalUrl, web.url('beta.test', '/new'));
  assert.deepEqual(asked, [web.url('alpha.test', '/mid'), web.url('beta.test', '/new')]);
});

test('a redirect the hook refuses ends there, with the hook\'s kind, and is not requested', async () => {
  web.page('alpha.test', '/to-private', 'moved', { status: 302, headers: { location: '/private/x' } });
  const o = expectKind(
    await fetcher.fetch(web.url('alpha.test', '/to-private'), {
      allowUrl: (u) => (u.includes('/private/') ? { allowed: false, failure: 'robots', detail: 'disallow: /private' } : { allowed: true }),
    }),
    'failed',
  );
  assert.equal(o.failure, 'robots');
  assert.equal(web.count('alpha.test', '/private/x'), 0);
});

test('HTTP errors are outcomes with their status', { skip: SHARED }, async () => {
  assert.equal(expectKind(await fetcher.fetch(web.url('debian.test', '/missing.html')), 'http-error').status, 404);
  web.page('alpha.test', '/boom', 'oops', { status: 500 });
  assert.equal(expectKind(await fetcher.fetch(web.url('alpha.test', '/boom')), 'http-error').status, 500);
});

test('bad URLs fail without a request', async () => {
  assert.equal(expectKind(await fetcher.fetch('ftp://alpha.test/file'), 'failed').failure, 'bad-url');
  assert.equal(expectKind(await fetcher.fetch(`http://alpha.test/${'x'.repeat(3000)}`), 'failed').failure, 'bad-url');
  web.page('alpha.test', '/to-mailto', 'moved', { status: 302, headers: { location: 'mailto:a@b.example' } });
  assert.equal(expectKind(await fetcher.fetch(web.url('alpha.test', '/to-mailto')), 'failed').failure, 'bad-url');
});

test('an unmapped name fails as dns without a query leaving the machine', async () => {
  const o = expectKind(await fetcher.fetch('http://unmapped.example/'), 'failed');
  assert.equal(o.failure, 'dns');
});

test('a body over the byte cap is cut and still usable', async () => {
  web.page('alpha.test', '/big.html', `<html><body>${'<p>Call me Ishmael.</p>'.repeat(5000)}</body></html>`);
  const o = expectKind(await fetcher.fetch(web.url('alpha.test', '/big.html'), { maxBytes: 10_000 }), 'ok');
  assert.equal(o.truncated, true);
  assert.equal(o.bytes, 10_000);
  assert.match(o.text ?? '', /^<html><body><p>Call me Ishmael/);
});

test('connections are reused: ten pages of one host over one connection', { skip: SHARED }, async () => {
  for (let i = 0; i < 10; i++) expectKind(await fetcher.fetch(web.url('chickens.test', '/toc.xhtml')), 'ok');
  assert.equal(web.count('chickens.test', '/toc.xhtml'), 10);
  assert.equal(web.connectionsUsed('chickens.test', '/toc.xhtml'), 1);
});

test('a resolved name is dialled at the address the policy checked, once per connection, Host kept', async () => {
  const lookups: string[] = [];
  const lookup = async (host: string) => (lookups.push(host), [{ address: '127.0.0.1', family: 4 }]);
  const open = new Fetcher({ lookup, allowPrivate: true });
  const shut = new Fetcher({ lookup });
  try {
    web.page('named.example', '/p.html', '<p>named</p>');
    const url = `http://named.example:${web.port}/p.html`;
    expectKind(await open.fetch(url), 'ok');
    expectKind(await open.fetch(url), 'ok');
    assert.deepEqual(lookups, ['named.example'], 'one check for one reused connection');
    assert.equal(web.lastHeaders('named.example', '/p.html')!.host, `named.example:${web.port}`);
    // The same answer without allowPrivate: refused in the connector, before a packet is sent.
    const o = expectKind(await shut.fetch(url), 'failed');
    assert.equal(o.failure, 'refused-address');
    assert.equal(web.count('named.example', '/p.html'), 2);
  } finally {
    await open.close();
    await shut.close();
  }
});

test('onAnswer hears every answer that is not the page: each redirect hop, a 304, an error with its body within the cap', async () => {
  web.page('answers.test', '/hop1', 'first hop', { status: 301, headers: { location: '/hop2', 'content-type': 'text/plain' } });
  web.page('answers.test', '/hop2', '', { status: 302, headers: { location: '/end.html' } });
  web.page('answers.test', '/end.html', '<p>end</p>', { headers: { etag: '"e1"' } });
  web.page('answers.test', '/err.html', `<p>${'x'.repeat(5000)}</p>`, { status: 503, encoding: 'gzip', headers: { 'retry-after': '5' } });
  const heard: { url: string; status: number; body: string; truncated: boolean; location?: string; accept?: string }[] = [];
  const onAnswer = (a: Answer) => heard.push({ url: a.url, status: a.status, body: Buffer.from(a.body).toString('utf8'), truncated: a.truncated, location: a.headers.location, accept: a.requestHeaders.accept });
  const ok = expectKind(await fetcher.fetch(web.url('answers.test', '/hop1'), { onAnswer }), 'ok');
  assert.equal(ok.finalUrl, web.url('answers.test', '/end.html'));
  assert.deepEqual(heard.map((h) => [h.url, h.status, h.body, h.location]), [
    [web.url('answers.test', '/hop1'), 301, 'first hop', '/hop2'],
    [web.url('answers.test', '/hop2'), 302, '', '/end.html'],
  ], 'the page itself is not heard: it is the outcome');
  assert.ok(heard.every((h) => h.accept), 'with the request headers as sent');
  heard.length = 0;
  expectKind(await fetcher.fetch(web.url('answers.test', '/end.html'), { onAnswer, validators: { etag: '"e1"' } }), 'not-modified');
  assert.deepEqual(heard.map((h) => [h.status, h.body]), [[304, '']]);
  heard.length = 0;
  expectKind(await fetcher.fetch(web.url('answers.test', '/err.html'), { onAnswer, maxBytes: 1000 }), 'http-error');
  assert.equal(heard[0]?.status, 503);
  assert.ok(heard[0]!.body.startsWith('<p>xxx'), 'the body is decoded');
  assert.equal(heard[0]!.body.length, 1000);
  assert.equal(heard[0]!.truncated, true);
});
