import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Fetcher } from '../../src/web/fetcher.js';
import { fetchRobots, RobotsGate } from '../../src/web/robots-fetch.js';
import { noDns, startTestWeb, type TestWeb } from '../support/testweb.js';
import { needsShared } from '../support/shared.js';

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

const origin = (host: string) => `http://${host}:${web.port}`;

test('a real robots.txt is fetched and its rules decide', { skip: SHARED }, async () => {
  const gate = new RobotsGate(fetcher, { userAgent: fetcher.userAgent });
  const tmp = await gate.check(web.url('diveintopython.test', '/tmp/x.html'));
  assert.equal(tmp.allowed, false);
  assert.equal(tmp.rule?.pattern, '/tmp/');
  assert.equal((await gate.check(web.url('diveintopython.test', '/index.html'))).allowed, true);
});

test('the robots.txt of an origin is fetched once, however many ask at the same time', { skip: SHARED }, async () => {
  const gate = new RobotsGate(fetcher, { userAgent: 'anwc' });
  const urls = Array.from({ length: 8 }, (_, i) => web.url('debian.test', `/page-${i}.html`));
  const decisions = await Promise.all(urls.map((u) => gate.check(u)));
  assert.ok(decisions.every((d) => d.allowed && d.rules.kind === 'allow-all'), 'a 404 robots.txt allows all');
  await gate.check(web.url('debian.test', '/again.html'));
  assert.equal(web.count('debian.test', '/robots.txt'), 1);
});

test('5xx robots.txt disallows all until it answers', async () => {
  for (const host of ['robots-503.test', 'robots-500.test']) {
    const { rules, outcome } = await fetchRobots(fetcher, origin(host), Date.now());
    assert.equal(outcome.kind, 'http-error');
    assert.equal(rules.kind, 'disallow-all', host);
    assert.ok(rules.retryAfter! > rules.fetchedAt);
  }
});

test('a 503 robots.txt with Retry-After is asked again when the server said, not after the usual backoff', async () => {
  web.page('robots-later.test', '/robots.txt', 'busy', { status: 503, headers: { 'retry-after': '120' } });
  web.page('robots-soon.test', '/robots.txt', 'busy', { status: 503 });
  const at = Date.now();
  const later = (await fetchRobots(fetcher, origin('robots-later.test'), at)).rules;
  const soon = (await fetchRobots(fetcher, origin('robots-soon.test'), at)).rules;
  assert.ok(later.kind === 'disallow-all' && soon.kind === 'disallow-all');
  assert.ok(Math.abs(later.retryAfter! - (at + 120_000)) < 2_000, `retry at ${later.retryAfter! - at} ms, the server asked 120 s`);
  assert.notEqual(soon.retryAfter! - at, later.retryAfter! - at, 'without Retry-After, the backoff decides');
});

test('a robots.txt that redirects in a loop counts as unavailable (allow all), as too many redirects do', async () => {
  const { rules, outcome } = await fetchRobots(fetcher, origin('redirect-loop.test'), Date.now());
  assert.equal(outcome.kind === 'failed' && outcome.failure, 'redirect-loop');
  assert.equal(rules.kind, 'allow-all');
});

test('a robots.txt over 500 KiB is read up to the limit and no further', async () => {
  const { rules, outcome } = await fetchRobots(fetcher, origin('robots-huge.test'), Date.now());
  assert.equal(outcome.kind, 'ok');
  assert.ok(outcome.kind === 'ok' && outcome.wireBytes <= 500 * 1024 + 1);
  assert.equal(rules.kind, 'full');
  assert.equal(rules.truncated, true);
  const gate = new RobotsGate(fetcher, { userAgent: 'anwc' });
  await gate.cache.put(origin('robots-huge.test'), rules);
  assert.equal((await gate.check(web.url('robots-huge.test', '/early/a'))).allowed, false);
  assert.equal((await gate.check(web.url('robots-huge.test', '/late/a'))).allowed, true, 'the rule past the cut is not read');
});

test('three redirects are followed; seven are too many and count as unavailable (allow all)', async () => {
  const three = await fetchRobots(fetcher, origin('robots-3-redirects.test'), Date.now());
  assert.equal(three.rules.kind, 'full');
  assert.equal(three.outcome.redirects.length, 3);
  const seven = await fetchRobots(fetcher, origin('robots-7-redirects.test'), Date.now());
  assert.equal(seven.outcome.kind === 'failed' && seven.outcome.failure, 'too-many-redirects');
  assert.equal(seven.rules.kind, 'allow-all');
  assert.equal(web.count('robots-7-redirects.test', '/hop/7'), 0, 'the chain is not walked past five');
});

test('an unreachable robots.txt (no address) disallows all', async () => {
  const { rules } = await fetchRobots(fetcher, 'http://unmapped.example', Date.now());
  assert.equal(rules.kind, 'disallow-all');
  assert.match(rules.cause, /dns/);
});

test('Crawl-delay is read for our product token', async () => {
  web.page('delay.test', '/robots.txt', 'User-agent: other\nCrawl-delay: 60\n\nUser-agent: anwc\nCrawl-delay: 4\nDisallow: /no\n', {
    headers: { 'content-type': 'text/plain' },
  });
  const gate = new RobotsGate(fetcher, { userAgent: fetcher.userAgent });
  assert.equal(await gate.crawlDelay(web.url('delay.test', '/')), 4);
});

test('as the fetcher\'s allowUrl hook it stops a redirect into a disallowed path', async () => {
  web.page('hop.test', '/robots.txt', 'User-agent: *\nDisallow: /secret\n', { headers: { 'content-type': 'text/plain' } });
  web.page('hop.test', '/open', 'moved', { status: 302, headers: { location: '/secret/page' } });
  const gate = new RobotsGate(fetcher, { userAgent: fetcher.userAgent });
  const o = await fetcher.fetch(web.url('hop.test', '/open'), { allowUrl: gate.allowUrl });
  assert.equal(o.kind === 'failed' && o.failure, 'robots');
  assert.equal(web.count('hop.test', '/secret/page'), 0);
});
