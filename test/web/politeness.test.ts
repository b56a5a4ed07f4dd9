import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostSignal, Politeness } from '../../src/web/politeness.js';
import type { FetchOutcome } from '../../src/web/outcome.js';

const base = { method: 'GET' as const, url: 'http://a.test/', finalUrl: 'http://a.test/', redirects: [], timing: { startMs: 0, totalMs: 1 } };
const ok: FetchOutcome = {
  ...base, kind: 'ok', status: 200, headers: {}, contentType: 'text/html', body: new Uint8Array(0), bytes: 0, wireBytes: 0, truncated: false, requestHeaders: {},
};
const httpError = (status: number, headers: Record<string, string> = {}): FetchOutcome => ({ ...base, kind: 'http-error', status, headers, contentType: null });
const failed = (failure: 'timeout' | 'robots' | 'reset' | 'refused' | 'dns' | 'tls' | 'network' | 'too-large' | 'bad-content-type'): FetchOutcome => ({ ...base, kind: 'failed', failure, detail: '' });

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

test('one request in flight per host, then the delay between requests', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000 });
  assert.equal(p.acquire('a.test'), true);
  assert.equal(p.isReady('a.test'), false);
  assert.equal(p.acquire('a.test'), false);
  assert.deepEqual(p.readyHosts(['a.test', 'b.test']), ['b.test']);
  c.t += 200;
  p.release('a.test', ok);
  assert.equal(p.isReady('a.test'), false);
  assert.equal(p.nextReadyAt(['a.test']), c.t + 1000);
  c.t += 999;
  assert.equal(p.isReady('a.test'), false);
  c.t += 1;
  assert.equal(p.isReady('a.test'), true);
});

test('perHost 2 allows two in flight, their starts still spaced by the delay', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, perHost: 2, delayMs: 500 });
  assert.equal(p.acquire('a.test'), true);
  assert.equal(p.acquire('a.test'), false);
  c.t += 500;
  assert.equal(p.acquire('a.test'), true);
  c.t += 500;
  assert.equal(p.acquire('a.test'), false, 'both slots taken');
  p.release('a.test', ok);
  assert.equal(p.state('a.test')!.inFlight, 1);
});

test('nextReadyAt: the earliest host, undefined while all are busy or given up', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000 });
  p.acquire('a.test');
  p.acquire('b.test');
  assert.equal(p.nextReadyAt(['a.test', 'b.test']), undefined);
  c.t += 10;
  p.release('b.test', ok);
  assert.equal(p.nextReadyAt(['a.test', 'b.test']), c.t + 1000);
  assert.equal(p.nextReadyAt(['a.test', 'new.test']), 0, 'a host never seen is ready at once');
});

test('Crawl-delay raises the delay up to the ceiling, never lowers it', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000, maxDelayMs: 30_000 });
  p.setCrawlDelay('a.test', 5);
  assert.equal(p.state('a.test')!.delayMs, 5000);
  p.setCrawlDelay('a.test', 3600);
  assert.equal(p.state('a.test')!.delayMs, 30_000);
  p.setCrawlDelay('a.test', 0.1);
  assert.equal(p.state('a.test')!.delayMs, 1000);
  p.setCrawlDelay('a.test', 5);
  p.acquire('a.test');
  p.release('a.test', ok);
  assert.equal(p.nextReadyAt(['a.test']), c.t + 5000);
});

test('429 with Retry-After in seconds waits that long, capped', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, maxRetryAfterMs: 60_000 });
  p.acquire('a.test');
  p.release('a.test', httpError(429, { 'retry-after': '7' }));
  assert.equal(p.nextReadyAt(['a.test']), c.t + 7000);
  assert.equal(p.state('a.test')!.reason, 'retry-after');
  assert.equal(p.state('a.test')!.errors, 0, 'a throttle is not an error');
  c.t += 7000;
  p.acquire('a.test');
  p.release('a.test', httpError(429, { 'retry-after': '86400' }));
  assert.equal(p.nextReadyAt(['a.test']), c.t + 60_000);
});

test('503 with Retry-After as an HTTP date', () => {
  const c = clock(Date.parse('2024-05-01T12:00:00Z'));
  const p = new Politeness({ now: c.now });
  p.acquire('a.test');
  p.release('a.test', httpError(503, { 'retry-after': 'Wed, 01 May 2024 12:02:00 GMT' }));
  assert.equal(p.nextReadyAt(['a.test']), c.t + 120_000);
});

test('errors back off exponentially with injected jitter, then the host is given up', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000, backoffBaseMs: 2000, backoffMaxMs: 60_000, maxTries: 4, rng: () => 0.5 });
  const waits: number[] = [];
  for (let i = 0; i < 3; i++) {
    p.acquire('a.test');
    const s = p.release('a.test', i === 1 ? httpError(500) : failed('timeout'));
    waits.push(s.nextAt - c.t);
    c.t = s.nextAt;
  }
  assert.deepEqual(waits, [2000, 4000, 8000]);
  p.acquire('a.test');
  const last = p.release('a.test', failed('reset'));
  assert.equal(last.gaveUp, true);
  assert.match(last.reason, /gave up after 4 errors/);
  c.t += 10 ** 9;
  assert.equal(p.isReady('a.test'), false);
  assert.equal(p.nextReadyAt(['a.test']), undefined);
});

test('the retries of one failing page slow its host but do not give it up; errors on as many different pages do', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, backoffBaseMs: 1000, backoffMaxMs: 60_000, maxTries: 3, rng: () => 0.5 });
  const fail = (url: string) => {
    p.acquire('a.test');
    const s = p.release('a.test', httpError(500), c.t, url);
    c.t = s.nextAt;
    return s;
  };
  for (let i = 0; i < 5; i++) fail('http://a.test/broken');
  let s = p.state('a.test')!;
  assert.deepEqual([s.gaveUp, s.errors, s.failedPages], [false, 5, 1]);
  assert.equal(s.reason, 'backoff');
  fail('http://a.test/other');
  s = fail('http://a.test/third');
  assert.deepEqual([s.gaveUp, s.failedPages], [true, 3]);
  assert.match(s.reason, /gave up after 7 errors in a row on 3 pages/);
  p.acquire('b.test');
  p.release('b.test', httpError(500), c.t, 'http://b.test/x');
  p.acquire('b.test');
  p.release('b.test', httpError(404), c.t, 'http://b.test/y');
  p.acquire('b.test');
  assert.equal(p.release('b.test', httpError(500), c.t, 'http://b.test/x').failedPages, 1, 'an answer starts the count again');
});

test('jitter spreads the backoff between half and one and a half times', () => {
  const lo = new Politeness({ rng: () => 0, backoffBaseMs: 1000 });
  const hi = new Politeness({ rng: () => 0.999, backoffBaseMs: 1000 });
  assert.equal(lo.backoff(3), 2000);
  assert.equal(hi.backoff(3), 5996);
});

test('a success clears the error count; URL-level failures do not count against the host', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, maxTries: 2, rng: () => 0.5 });
  p.acquire('a.test');
  c.t = p.release('a.test', failed('timeout')).nextAt;
  p.acquire('a.test');
  c.t = p.release('a.test', failed('robots')).nextAt;
  assert.equal(p.state('a.test')!.errors, 0);
  p.acquire('a.test');
  c.t = p.release('a.test', httpError(404)).nextAt;
  assert.equal(p.state('a.test')!.gaveUp, false);
});

test('prune drops idle slots that remember nothing, keeps the rest', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, idleMs: 1000, rng: () => 0.5 });
  p.acquire('idle.test');
  p.release('idle.test', ok);
  p.acquire('sick.test');
  p.release('sick.test', failed('timeout'));
  p.acquire('busy.test');
  c.t += 10 ** 7;
  assert.equal(p.prune(), 1);
  assert.equal(p.state('idle.test'), undefined);
  assert.ok(p.state('sick.test'));
  assert.ok(p.state('busy.test'));
});

test('hostSignal: which answers say the host is unwell, which ask it to wait, and which are about the URL alone', () => {
  const now = 1_000_000;
  for (const f of ['timeout', 'reset', 'refused', 'dns', 'tls', 'network'] as const) assert.deepEqual(hostSignal(failed(f), now), { kind: 'error' }, f);
  for (const f of ['robots', 'too-large', 'bad-content-type'] as const) assert.deepEqual(hostSignal(failed(f), now), { kind: 'answered' }, f);
  assert.deepEqual(hostSignal(httpError(429, { 'retry-after': '7' }), now), { kind: 'throttled', waitMs: 7000 });
  assert.deepEqual(hostSignal(httpError(503), now), { kind: 'throttled', waitMs: undefined });
  for (const status of [500, 502, 504]) assert.deepEqual(hostSignal(httpError(status), now), { kind: 'error' }, String(status));
  for (const status of [404, 410, 403, 408]) assert.deepEqual(hostSignal(httpError(status), now), { kind: 'answered' }, String(status));
  assert.deepEqual(hostSignal(ok, now), { kind: 'answered' });
});

test('what a host is asked at now: the delays in force, a Crawl-delay taken back, the reasons a host waits', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, perHost: 3, delayMs: 1000, maxDelayMs: 30_000 });
  assert.deepEqual([p.perHost, p.baseDelayMs, p.delayOf('never-seen.test')], [3, 1000, 1000]);
  p.setCrawlDelay('a.test', 5);
  assert.deepEqual([p.delayOf('a.test'), p.state('a.test')!.reason], [5000, 'new']);
  p.setCrawlDelay('a.test', undefined);
  assert.equal(p.delayOf('a.test'), 1000, 'a robots.txt without Crawl-delay gives the default back');
  p.acquire('a.test');
  assert.equal(p.state('a.test')!.reason, 'delay');
  c.t += 50;
  p.release('a.test', ok);
  assert.equal(p.state('a.test')!.reason, 'delay');
});

test('nextReadyAt gives the earliest of several hosts, whatever their order', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000 });
  for (const [h, wait] of [['late.test', 3000], ['soon.test', 1000], ['middle.test', 2000]] as const) {
    p.setCrawlDelay(h, wait / 1000);
    p.acquire(h);
    p.release(h, ok);
  }
  assert.equal(p.nextReadyAt(['late.test', 'soon.test', 'middle.test']), c.t + 1000);
  assert.equal(p.nextReadyAt(['middle.test', 'late.test']), c.t + 2000);
});

test('cancel gives back a slot that sent nothing: the delay taken stands, and nothing is learned', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000, rng: () => 0.5 });
  p.acquire('a.test');
  p.release('a.test', failed('timeout'));
  c.t = p.state('a.test')!.nextAt;
  p.acquire('a.test');
  c.t += 10;
  p.cancel('a.test');
  const s = p.state('a.test')!;
  assert.deepEqual([s.inFlight, s.errors, s.nextAt, s.lastUsed], [0, 1, c.t - 10 + 1000, c.t]);
  p.cancel('a.test');
  assert.equal(p.state('a.test')!.inFlight, 0, 'never below none');
});

test('a 503 without Retry-After is an error: the host backs off', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 100, backoffBaseMs: 2000, rng: () => 0.5 });
  p.acquire('a.test');
  const s = p.release('a.test', httpError(503));
  assert.deepEqual([s.reason, s.errors, s.nextAt], ['backoff', 1, c.t + 2000]);
});

test('failing names the hosts whose last answers were errors, with how many in a row', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, rng: () => 0.5 });
  for (const [h, outcomes] of [['sick.test', [failed('timeout'), httpError(500)]], ['well.test', [failed('reset'), ok]], ['quiet.test', [ok]]] as const) {
    for (const o of outcomes) {
      p.acquire(h);
      c.t = p.release(h, o).nextAt;
    }
  }
  assert.deepEqual([...p.failing()], [['sick.test', 2]]);
});

test('prune forgets a slot idle exactly idleMs whose wait is over, but never a host with a Crawl-delay of its own', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 1000, idleMs: 5000 });
  p.setCrawlDelay('slow.test', 10);
  p.acquire('slow.test');
  p.release('slow.test', ok);
  p.acquire('plain.test');
  p.release('plain.test', ok);
  c.t += 4999;
  assert.equal(p.prune(), 0, 'idle less than idleMs');
  c.t += 1;
  // plain.test: idle 5000 ms exactly, ready since 4000 ms; slow.test waits until 10000 ms.
  assert.deepEqual([p.prune(), p.size], [1, 1]);
  c.t += 5000;
  assert.deepEqual([p.prune(), p.size], [0, 1], 'its Crawl-delay is kept');
  assert.equal(p.delayOf('slow.test'), 10_000);
});

test('prune forgets a slot whose wait ends at the very moment it is asked', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, delayMs: 5000, idleMs: 5000 });
  p.acquire('a.test');
  p.release('a.test', ok);
  c.t += 5000;
  assert.equal(p.prune(), 1, 'ready now (nextAt = now) and idle idleMs: nothing left to remember');
});

test('prune keeps a host that asked us to wait longer than idleMs: its Retry-After still holds', () => {
  const c = clock();
  const p = new Politeness({ now: c.now, idleMs: 5000, maxRetryAfterMs: 3_600_000 });
  p.acquire('busy-server.test');
  p.release('busy-server.test', httpError(429, { 'retry-after': '3600' }));
  const until = c.t + 3_600_000;
  c.t += 60_000;
  assert.equal(p.prune(), 0);
  assert.equal(p.nextReadyAt(['busy-server.test']), until);
});
