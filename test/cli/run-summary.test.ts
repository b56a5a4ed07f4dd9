import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSummaryLines } from '../../src/cli/report/summary.js';
import { WalkStats } from '../../src/walk/stats.js';

/**
 * The end-of-run summary accounts for every link walked: a redirect or a robots.txt refusal is
 * walked but not fetched, and the summary says how many of each, as the offline demo's search
 * results (each a redirect to its page) showed when walked and fetched differed by 33.
 */
test('the summary gives every page walked by its outcome, and the outcomes add up to the pages walked', () => {
  const s = new WalkStats();
  const harvested = { kind: 'harvested' as const, status: 200, nodes: 1, blocks: 2, rejected: {}, links: 0 };
  for (let i = 0; i < 3; i++) s.record(harvested, 'a.test', 1, 0);
  s.record({ kind: 'redirected', status: 301, to: 'http://b.test/' }, 'a.test', 0, 1);
  s.record({ kind: 'redirected', status: 302, to: 'http://c.test/' }, 'a.test', 0, 1);
  const lines = runSummaryLines(s, 'frontier-empty', 1000, []);
  assert.match(lines.find((l) => l.includes('pages walked '))!, /pages walked\s+5 /);
  assert.match(lines.find((l) => l.includes('pages fetched'))!, /pages fetched\s+3$/);
  const at = lines.indexOf('pages walked, by outcome:');
  assert.ok(at > 0, lines.join('\n'));
  assert.deepEqual(lines.slice(at + 1, at + 3).map((l) => l.trim().split(/\s+/).slice(0, 2)), [['harvested', '3'], ['redirected', '2']]);
});
