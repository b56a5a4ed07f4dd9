import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Fetcher } from '../../src/web/fetcher.js';
import type { FetchOutcome } from '../../src/web/outcome.js';
import { Politeness } from '../../src/web/politeness.js';
import { noDns, startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * The fault suite: every hostile host of test/support/hostile.ts through the real fetcher. Each
 * case must end within its time bound with the outcome named here, and the whole suite must not
 * grow the process by more than RSS_BOUND (caps hold; nothing is inflated or buffered whole).
 */

const TIMEOUT_MS = 1500;
/** Slack for the event loop on a busy machine, on top of the time limit. */
const SLACK_MS = 1500;
const CAP = 1024 * 1024;
const RSS_BOUND = 96 * 1024 * 1024;

let web: TestWeb;
let fetcher: Fetcher;
let rssStart = 0;

before(async () => {
  web = await startTestWeb();
  fetcher = new Fetcher({ resolve: web.resolve, lookup: noDns, timeoutMs: TIMEOUT_MS, maxBytes: CAP });
  await fetcher.fetch(web.url('hub.test', '/'));
  rssStart = process.memoryUsage().rss;
});
after(async () => {
  await fetcher.close();
  await web.close();
});

async function hostile(host: string, path = '/', f = fetcher): Promise<FetchOutcome> {
  const o = await f.fetch(web.url(host, path));
  assert.ok(o.timing.totalMs < TIMEOUT_MS + SLACK_MS, `${host} took ${o.timing.totalMs} ms`);
  return o;
}

function failure(o: FetchOutcome): string {
  return o.kind === 'failed' ? o.failure : `not a failure: ${o.kind}`;
}

test('slow drip: a byte every 100 ms never trips an idle timeout, the total limit ends it', async () => {
  const o = await hostile('slow-drip.test');
  assert.equal(failure(o), 'timeout');
  assert.ok(o.timing.totalMs >= TIMEOUT_MS - 50);
});

test('header timeout: a server that never answers ends at the headers limit', async () => {
  const f = new Fetcher({ resolve: web.resolve, lookup: noDns, headersTimeoutMs: 300, timeoutMs: 10_000 });
  try {
    const o = await hostile('header-timeout.test', '/', f);
    assert.equal(failure(o), 'timeout');
    assert.ok(o.timing.totalMs < 1500, `${o.timing.totalMs} ms`);
  } finally {
    await f.close();
  }
});

test('endless body: cut at the byte cap, the page is still usable', async () => {
  const o = await hostile('endless-body.test');
  assert.equal(o.kind, 'ok');
  assert.ok(o.kind === 'ok' && o.truncated && o.bytes === CAP && o.wireBytes === CAP);
  assert.match(o.kind === 'ok' ? o.text!.slice(0, 30) : '', /<p>more and more text/);
});

test('gzip bomb and brotli bomb stop at the cap as too-large, never inflated further', async () => {
  for (const host of ['gzip-bomb.test', 'brotli-bomb.test']) {
    const o = await hostile(host);
    assert.equal(failure(o), 'too-large', host);
    assert.match(o.kind === 'failed' ? o.detail : '', /compression bomb/);
  }
});

test('redirect loop and endless redirect chain', async () => {
  const loop = await hostile('redirect-loop.test', '/a');
  assert.equal(failure(loop), 'redirect-loop');
  assert.equal(loop.redirects.length, 2);
  const chain = await hostile('redirect-chain.test', '/n/1');
  assert.equal(failure(chain), 'too-many-redirects');
  assert.equal(web.count('redirect-chain.test', '/n/7'), 0, 'five redirects followed, no more');
});

test('a redirect that leaves the allowed addresses is refused before any packet is sent', async () => {
  const o = await hostile('leave-addresses.test');
  assert.equal(failure(o), 'refused-address');
  assert.equal(o.finalUrl, `http://127.0.0.2:${web.port}/secret`);
  assert.equal(web.canaryConnections(), 0);
  if (web.canaryListening) {
    // The same redirect with --allow-private does reach the canary: the zero above means something.
    const open = new Fetcher({ resolve: web.resolve, lookup: noDns, allowPrivate: true, timeoutMs: TIMEOUT_MS });
    try {
      await open.fetch(web.url('leave-addresses.test'));
      assert.ok(web.canaryConnections() > 0);
    } finally {
      await open.close();
    }
  }
});

test('429 with Retry-After seconds and 503 with an HTTP date hold the host back', async () => {
  const p = new Politeness({ maxRetryAfterMs: 3_600_000 });
  const tooMany = await hostile('retry-after.test');
  assert.equal(tooMany.kind === 'http-error' && tooMany.status, 429);
  const now = Date.now();
  p.acquire('retry-after.test', now);
  assert.equal(p.release('retry-after.test', tooMany, now).nextAt, now + 7000);
  const down = await hostile('unavailable.test');
  assert.equal(down.kind === 'http-error' && down.status, 503);
  p.acquire('unavailable.test', now);
  const wait = p.release('unavailable.test', down, now).nextAt - now;
  assert.ok(wait > 100_000 && wait <= 121_000, `${wait} ms`);
});

test('wrong charset: declared UTF-8 over windows-1252 bytes, and the reverse, decode as declared', async () => {
  const lies8 = await hostile('charset-lies-utf8.test');
  assert.ok(lies8.kind === 'ok');
  assert.equal(lies8.charset, 'UTF-8');
  assert.equal(lies8.charsetSource, 'http');
  assert.match(lies8.text!, /caf\uFFFD/);
  const lies1252 = await hostile('charset-lies-1252.test');
  assert.ok(lies1252.kind === 'ok');
  assert.equal(lies1252.charset, 'windows-1252');
  assert.match(lies1252.text!, /cafÃ©/);
});

test('binary served as text/html is refused as bad-content-type', async () => {
  const o = await hostile('binary-as-html.test');
  assert.equal(failure(o), 'bad-content-type');
  assert.match(o.kind === 'failed' ? o.detail : '', /binary/);
});

test('infinite calendar: every page fetches fine and links on; only a budget ends the walk', async () => {
  let url = web.url('infinite-calendar.test', '/2024-01-01');
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const o = await hostile('infinite-calendar.test', new URL(url).pathname);
    assert.equal(o.kind, 'ok');
    seen.add(url);
    const next = /href="([^"]+)"/.exec(o.kind === 'ok' ? o.text! : '')?.[1];
    assert.ok(next, 'each day links to the next');
    url = new URL(next, url).href;
  }
  assert.equal(seen.size, 40);
  assert.equal(web.count('infinite-calendar.test', '/2024-02-09'), 1);
});

test('connection reset mid body is a reset failure', async () => {
  const o = await hostile('reset-mid-body.test');
  assert.equal(failure(o), 'reset');
  assert.equal(o.kind === 'failed' && o.status, 200);
});

test('memory stays bounded across the suite', () => {
  const growth = process.memoryUsage().rss - rssStart;
  assert.ok(growth < RSS_BOUND, `rss grew ${(growth / 2 ** 20).toFixed(1)} MiB (bound ${RSS_BOUND / 2 ** 20} MiB)`);
  console.log(`# rss growth across the fault suite: ${(growth / 2 ** 20).toFixed(1)} MiB`);
});
