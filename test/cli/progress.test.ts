import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { progressView } from '../../src/cli/progress.js';
import { waitingJson, waitingText } from '../../src/cli/report/waiting.js';
import { WalkStats } from '../../src/walk/stats.js';

const NOW = Date.UTC(2024, 4, 1, 12, 2, 28);

test('the waiting line: how many links, the time the first is due, and how long until then', () => {
  assert.equal(waitingText({ links: 5, nextAt: NOW + 42_000 }, NOW), 'waiting: 5 links for a retry, next due 12:03:10 UTC (in 42 s)');
  assert.equal(waitingText({ links: 1, nextAt: NOW + 9 * 60_000 + 30_000 }, NOW), 'waiting: 1 link for a retry, next due 12:11:58 UTC (in 9 min 30 s)');
  assert.equal(waitingText({ links: 2, nextAt: NOW + 13 * 3_600_000 }, NOW), 'waiting: 2 links for a retry, next due 2024-05-02 01:02:28 UTC (in 13 h)', 'another day is named');
  assert.equal(waitingText({ links: 2, nextAt: NOW - 1 }, NOW), 'waiting: 2 links for a retry, next due 12:02:27 UTC (due now)');
  assert.deepEqual(waitingJson({ links: 5, nextAt: NOW + 41_500 }, NOW), { links: 5, nextAt: '2024-05-01T12:03:09.500Z', inS: 42 });
  assert.equal(waitingJson(undefined, NOW), null);
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
