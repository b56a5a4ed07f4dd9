import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { progressView } from '../../src/cli/progress.js';
import { delayBoundJson, delayBoundText } from '../../src/cli/report/delay-bound.js';
import type { DelayBound } from '../../src/walk/delay-watch.js';
import { waitCause, waitingJson, waitingText } from '../../src/cli/report/waiting.js';
import { WalkStats } from '../../src/walk/stats.js';
import { anwc } from '../support/cli.js';
import { startTestWeb } from '../support/testweb.js';

const NOW = Date.UTC(2024, 4, 1, 12, 2, 28);

test('the waiting line: how many links, the time the first is due, and how long until then', () => {
  assert.equal(waitingText({ links: 5, nextAt: NOW + 42_000 }, NOW), 'waiting: 5 links for a retry, next due 12:03:10 UTC (in 42 s)');
  assert.equal(waitingText({ links: 1, nextAt: NOW + 9 * 60_000 + 30_000 }, NOW), 'waiting: 1 link for a retry, next due 12:11:58 UTC (in 9 min 30 s)');
  assert.equal(waitingText({ links: 2, nextAt: NOW + 13 * 3_600_000 }, NOW), 'waiting: 2 links for a retry, next due 2024-05-02 01:02:28 UTC (in 13 h)', 'another day is named');
  assert.equal(waitingText({ links: 2, nextAt: NOW - 1 }, NOW), 'waiting: 2 links for a retry, next due 12:02:27 UTC (due now)');
  assert.deepEqual(waitingJson({ links: 5, nextAt: NOW + 41_500 }, NOW), { links: 5, nextAt: '2024-05-01T12:03:09.500Z', inS: 42 });
  assert.equal(waitingJson(undefined, NOW), null);
});

test('the waiting line says what the first link waits for, and the flag that ends a wait on robots.txt', () => {
  const robots = { url: 'http://a.test:8080/x', kind: 'robots', detail: { reason: 'robots.txt unreachable (HTTP 500): all disallowed until it answers', failures: 1, cause: 'HTTP 500' } };
  assert.equal(
    waitingText({ links: 1, nextAt: NOW + 295_000, first: robots }, NOW),
    'waiting: 1 link for a retry, next due 12:07:23 UTC (in 4 min 55 s), the first on robots.txt of a.test:8080 (HTTP 500); --max-retries 0 does not wait',
  );
  assert.equal(waitCause({ url: 'http://b.test/', kind: 'http-error', detail: { status: 503 } }), 'the first after HTTP 503 at b.test');
  assert.equal(waitCause({ url: 'http://b.test/', kind: 'failed', detail: { failure: 'timeout' } }), 'the first after timeout at b.test');
  assert.equal(waitCause({ url: 'not a url', kind: 'http-error', detail: { status: 503 } }), undefined, 'a stored URL it cannot read says nothing');
  assert.equal(waitCause({ url: 'http://b.test/', kind: 'walked', detail: {} }), undefined);
  assert.equal(waitingJson({ links: 1, nextAt: NOW + 1000, first: robots }, NOW)?.cause, 'the first on robots.txt of a.test:8080 (HTTP 500); --max-retries 0 does not wait');
});

/** A stream that says it is a terminal, keeping what is written (escape codes taken out). */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });
  Object.assign(w, { isTTY: true, columns: 300 });
  return { stream: w as unknown as NodeJS.WriteStream, text: () => out.replace(/\x1B(?:\[[0-9;?]*[A-Za-z]|[78])/g, '') };
}

test('the bar says what the walk waits for, and says nothing of it once nothing waits', () => {
  const t = terminal();
  const view = progressView('bar', undefined, t.stream, () => NOW);
  view.update(new WalkStats(), { domains: 2, elapsedMs: 60_000, queue: 5, waiting: { links: 5, nextAt: NOW + 42_000 } });
  view.stop();
  assert.match(t.text(), /0\/5 pages \| 0 nodes \| 2 domains \| queue 5 \| 0\.0\/s \| waiting: 5 links for a retry, next due 12:03:10 UTC \(in 42 s\)/);
  const quiet = terminal();
  const again = progressView('bar', undefined, quiet.stream, () => NOW);
  again.update(new WalkStats(), { domains: 2, elapsedMs: 60_000, queue: 5 });
  again.stop();
  assert.match(quiet.text(), /queue 5 \| 0\.0\/s/);
  assert.doesNotMatch(quiet.text(), /waiting/);
});

test('the JSON line carries the wait, or null', () => {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }) as unknown as NodeJS.WriteStream;
  const view = progressView('json', undefined, stream, () => NOW);
  view.update(new WalkStats(), { domains: 1, elapsedMs: 5_000, queue: 5, waiting: { links: 5, nextAt: NOW + 42_000 } });
  view.update(new WalkStats(), { domains: 1, elapsedMs: 10_000, queue: 5 });
  const [waiting, working] = lines.map((l) => JSON.parse(l).progress);
  assert.deepEqual(waiting.waiting, { links: 5, nextAt: new Date(NOW + 42_000).toISOString(), inS: 42 });
  assert.equal(working.waiting, null);
});

test('auto is a bar on a terminal and JSON lines elsewhere; none writes nothing', () => {
  const stats = Object.assign(new WalkStats(), { pagesDone: 10, pagesStarted: 12 });
  const tty = terminal();
  const onTerminal = progressView('auto', 100, tty.stream, () => NOW);
  onTerminal.update(stats, { domains: 3, elapsedMs: 4_000, queue: 7 });
  onTerminal.stop();
  assert.match(tty.text(), /10\/100 pages \| 0 nodes \| 3 domains \| queue 7 \| 2\.5\/s\s*$/, 'the budget is the bar\'s end; the rate is pages a second; nothing after it when nothing waits');

  const lines: string[] = [];
  const pipe = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }) as unknown as NodeJS.WriteStream;
  const inLog = progressView('auto', 100, pipe, () => NOW);
  inLog.update(stats, { domains: 3, elapsedMs: 5_400, queue: 7 });
  inLog.update(stats, { domains: 3, elapsedMs: 10_399, queue: 7 });
  inLog.update(stats, { domains: 3, elapsedMs: 10_400, queue: 7 });
  assert.equal(lines.length, 2, 'a line every five seconds at most');
  assert.deepEqual(JSON.parse(lines[0]!).progress, { elapsedS: 5, pages: 10, nodes: 0, newNodes: 0, domains: 3, queue: 7, budgetLeft: 88, waiting: null, delayBound: null });
  assert.equal(JSON.parse(lines[1]!).progress.elapsedS, 10);

  // On a terminal too, where a bar would be drawn.
  const quiet = terminal();
  const none = progressView('none', 100, quiet.stream);
  none.update(stats, { domains: 3, elapsedMs: 60_000, queue: 7 });
  none.stop();
  assert.equal(quiet.text(), '');
});

/** A walk of one host at the default politeness: 1 s between requests, one at a time, four slots. */
const PACED: DelayBound = { share: 0.98, host: 'fail.test', hosts: 1, delayMs: 1000, baseDelayMs: 1000, perHost: 1, concurrency: 4 };

test('the delay-bound line names the delay and its host, and the flags that lift it on a site of one\'s own', () => {
  assert.equal(delayBoundText(PACED), 'bounded by the politeness delay (1 s a request to fail.test); for a site you own: --delay 0 --per-host 4');
  assert.equal(
    delayBoundText({ ...PACED, hosts: 3, host: 'a.test', delayMs: 500, baseDelayMs: 500, perHost: 4 }),
    'bounded by the politeness delay (0.5 s a request to each of 3 hosts, e.g. a.test); for a site you own: --delay 0',
    'a flag already given is not asked for again',
  );
  assert.equal(
    delayBoundText({ ...PACED, concurrency: 1 }),
    'bounded by the politeness delay (1 s a request to fail.test); for a site you own: --delay 0 --per-host 4 --concurrency 4',
    'four in flight at a host need four slots',
  );
  assert.equal(
    delayBoundText({ ...PACED, delayMs: 5000 }),
    'bounded by the Crawl-delay in fail.test\'s robots.txt (5 s a request); for a site you own: lower it there, and run with --delay 0 --per-host 4',
    'a Crawl-delay longer than --delay is the site\'s to lower: no flag lifts it',
  );
  assert.deepEqual(delayBoundJson(PACED), { by: 'delay', delayS: 1, host: 'fail.test', hosts: 1, share: 0.98, hint: delayBoundText(PACED) });
  assert.equal(delayBoundJson({ ...PACED, delayMs: 5000 })?.by, 'crawl-delay');
  assert.equal(delayBoundJson(undefined), null);
});

test('the bar and the JSON line say when the delay bounds the walk, and nothing of it while the network does', () => {
  const t = terminal();
  const view = progressView('bar', undefined, t.stream, () => NOW);
  view.update(new WalkStats(), { domains: 1, elapsedMs: 6_000, queue: 3, delayBound: PACED });
  view.stop();
  assert.match(t.text(), /queue 3 \| 0\.0\/s \| bounded by the politeness delay \(1 s a request to fail\.test\); for a site you own: --delay 0 --per-host 4/);
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }) as unknown as NodeJS.WriteStream;
  const json = progressView('json', undefined, stream, () => NOW);
  json.update(new WalkStats(), { domains: 1, elapsedMs: 5_000, queue: 3, delayBound: PACED });
  json.update(new WalkStats(), { domains: 1, elapsedMs: 10_000, queue: 3 });
  const [paced, free] = lines.map((l) => JSON.parse(l).progress);
  assert.equal(paced.delayBound.hint, delayBoundText(PACED));
  assert.equal(free.delayBound, null);
});

test('anwc maintain --site at the default delay says in its JSON progress that the delay sets its pace, and how to lift it', async () => {
  const web = await startTestWeb();
  const dir = mkdtempSync(join(tmpdir(), 'anwc-progress-'));
  try {
    // Seven pages at one a second: long enough for the JSON line, which comes every 5 s.
    const pages = Array.from({ length: 6 }, (_, i) => `/p${i}.html`);
    web.page('paced.test', '/', `<!DOCTYPE html><html><body>${pages.map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`);
    for (const p of pages) web.page('paced.test', p, '<!DOCTYPE html><html><body><p>A page of the site.</p></body></html>');
    const r = await anwc([
      'maintain', '--site', web.url('paced.test', '/'), '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', ...web.resolve, '--hosts', 'paced.test', '--progress', 'json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('{"progress"'));
    assert.ok(lines.length > 0, r.stderr);
    const { progress } = JSON.parse(lines.at(-1)!);
    assert.equal(progress.delayBound?.hint, 'bounded by the politeness delay (1 s a request to paced.test); for a site you own: --delay 0 --per-host 4', r.stderr);
    assert.equal(web.count('paced.test'), 8, 'robots.txt and the seven pages, each once');
  } finally {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
