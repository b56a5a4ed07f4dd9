import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSummaryLines, storeSummaryLines } from '../../src/cli/report/summary.js';
import type { StoreSummary } from '../../src/store/store.js';
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

/** One of each outcome, as a mixed run meets them. */
function mixedRun(): WalkStats {
  const s = new WalkStats();
  s.record({ kind: 'harvested', status: 200, nodes: 3, offTopic: 1, offTopicDropped: 2, blocks: 5, rejected: { length: 2, punctuation: 1 }, links: 4, truncated: true }, 'a.test', 2, 4, 3);
  s.record({ kind: 'harvested', status: 200, nodes: 0, blocks: 2, rejected: { length: 1, stopwords: 1 }, links: 1, truncated: false }, 'a.test', 0, 1);
  s.record({ kind: 'harvested', status: 200, nodes: 0, blocks: 0, rejected: {}, links: 0 }, 'a.test', 0, 0);
  s.record({ kind: 'walked', status: 200, links: 2 }, 'b.test', 0, 2);
  s.record({ kind: 'noindex', status: 200, links: 0 }, 'b.test', 0, 0);
  s.record({ kind: 'not-modified', status: 304 }, 'b.test', 0, 0);
  s.record({ kind: 'redirected', status: 301, to: 'http://c.test/' }, 'b.test', 0, 1);
  s.record({ kind: 'failed', failure: 'timeout' }, 'c.test', 0, 0);
  s.record({ kind: 'failed', failure: 'timeout' }, 'c.test', 0, 0);
  s.record({ kind: 'http-error', status: 404 }, 'c.test', 0, 0);
  s.record({ kind: 'rejected', constraint: 'type', cost: 'header' }, 'c.test', 0, 0);
  s.record({ kind: 'robots', reason: 'disallowed' }, 'd.test', 0, 0);
  s.record({ kind: 'refused', reason: 'address-refused' }, 'e.test', 0, 0);
  s.retryScheduled({ kind: 'failed', failure: 'reset' });
  s.retryScheduled({ kind: 'http-error', status: 503 });
  s.retryScheduled({ kind: 'robots', reason: 'unreachable', retryAt: 1 });
  s.dropped('hosts *.test');
  s.dropped('hosts *.test');
  return s;
}

test('the counters give each outcome its place: fetched, with a node, failed by kind, retried by cause', () => {
  const s = mixedRun().toJSON();
  assert.deepEqual(
    [s.pagesDone, s.pagesFetched, s.pagesWithNodes, s.nodes, s.newNodes, s.offTopic, s.offTopicDropped, s.newLinks, s.blocks, s.hosts],
    [13, 6, 1, 3, 2, 1, 2, 8, 7, 5],
  );
  assert.deepEqual(s.outcomes, { harvested: 3, walked: 1, noindex: 1, 'not-modified': 1, redirected: 1, failed: 2, 'http-error': 1, rejected: 1, robots: 1, refused: 1 });
  assert.deepEqual(s.blockRejections, { length: 3, punctuation: 1, stopwords: 1 });
  assert.deepEqual(s.failures, { timeout: 2, 'http-404': 1, 'constraint: type': 1, robots: 1, 'address-refused': 1 });
  assert.deepEqual([s.retries, s.retryCauses], [3, { reset: 1, 'http-503': 1, robots: 1 }]);
  assert.deepEqual(s.droppedLinks, { 'hosts *.test': 2 });
  assert.deepEqual([s.linksCut, s.pagesCut, s.pagesInPart], [3, 1, 1]);
});

test('the summary says each count once, in words, and only the harvest speaks of nodes and the wheel', () => {
  const wheel = [{ host: 'a.test', score: 3, share: 0.75 }, { host: 'b.test', score: 1, share: 0.25 }];
  const text = runSummaryLines(mixedRun(), 'max-pages', 4000, wheel, ['c.test'], 2).join('\n');
  for (const line of [
    /^harvest stopped: max-pages after 4\.0 s$/m,
    /^ {2}pages walked +13 \(3\.3\/s\)$/m,
    /^ {2}pages fetched +6$/m,
    /^ {2}pages with a node +1 \(16\.7% of fetched\)$/m,
    /^ {2}narrative nodes +3 \(2 new\)$/m,
    /^ {2}dropped, on no topic +2 \(--keep drop\)$/m,
    /^ {2}stored, on no topic +1 \(33\.3%\)$/m,
    /^ {2}blocks judged +7: 3 accepted \(42\.9%\)$/m,
    /^ {2}links added +8$/m,
    /^ {2}domains +5$/m,
    /^ {2}harvested +3 \(23\.1%\)$/m,
    /^blocks rejected, by rule \(a block can fail several\):\n {2}length +3\n {2}punctuation +1\n {2}stopwords +1$/m,
    /^links not harvested, by reason:\n {2}timeout +2\n {2}http-404 +1\n {2}constraint: type +1\n {2}robots +1\n {2}address-refused +1$/m,
    /^pages walked, by outcome:\n {2}harvested +3 \(23\.1%\)\n {2}failed +2 \(15\.4%\)\n {2}walked +1 \(7\.7%\)\n/m,
    /^links put back to try again later \(3\), by cause:$/m,
    /^links refused by an earlier run's settings, looked at again: 2$/m,
    /^links dropped at discovery, by constraint:\n {2}hosts \*\.test +2$/m,
    /^links past the cap of links a page \(--max-links-per-page\), not stored: 3 on 1 page\(s\)$/m,
    /^pages read only in part .*: 1$/m,
    /^hosts given up after errors in a row \(their links wait for the next run\): c\.test$/m,
    /^the wheel \(top domains by score\):\n {2}host +score +share\n {2}a\.test +3 +75\.0% +█{30}\n {2}b\.test +1 +25\.0% +█{10}$/m,
  ]) assert.match(text, line);

  const walk = runSummaryLines(mixedRun(), 'frontier-empty', 0, wheel, [], 0, 'map').join('\n');
  assert.match(walk, /^map stopped: frontier-empty after 0\.0 s$/m);
  assert.match(walk, /^links not walked, by reason:$/m);
  for (const absent of [/narrative nodes/, /blocks judged/, /on no topic/, /the wheel/, /looked at again/, /given up/]) assert.doesNotMatch(walk, absent);

  // Nothing walked: the table alone, no share of nothing, no empty sections.
  assert.deepEqual(runSummaryLines(new WalkStats(), 'frontier-empty', 1000, []), [
    'harvest stopped: frontier-empty after 1.0 s',
    '  pages walked         0 (0.0/s)',
    '  pages fetched        0',
    '  pages with a node    0 (- of fetched)',
    '  narrative nodes      0 (0 new)',
    '  stored, on no topic  0',
    '  blocks judged        0: 0 accepted (-)',
    '  links added          0',
    '  domains              0',
  ]);
});

test('anwc stats says each count of the database, and each optional line only when it has something to say', () => {
  const sum: StoreSummary = {
    nodes: { author: 4, crawler: 20 }, metaWords: 7, queries: 3, domains: 2,
    links: { done: 30, pending: 10 }, outcomes: { harvested: 25, redirected: 5 }, failures: { timeout: 2 },
    retries: { retried: 3 },
    nodeStatus: { ok: 17, changed: 2, gone: 1 }, reviews: { unreviewed: 15, approved: 4, rejected: 1 },
    copies: { exact: 2, near: 3 }, offTopic: 5,
  };
  const now = Date.UTC(2026, 0, 1, 12);
  const wheel = [{ host: 'long-host-name.test', score: 3, share: 0.75, pages: 12, nodes: 9 }];
  const text = storeSummaryLines(sum, wheel, now, { links: 1, nextAt: now + 42_000 }).join('\n');
  for (const line of [
    /^nodes +24 \(author 4, crawler 20\)$/m,
    /^crawler nodes on no topic +5 \(25\.0%; no meta word can draw them, anwc why-node ID says why\)$/m,
    /^meta words +7$/m, /^search queries +3$/m, /^domains +2$/m, /^links +40$/m,
    /^links by status:\n {2}done +30 \(75\.0%\)\n {2}pending +10 \(25\.0%\)$/m,
    /^links by outcome:\n {2}harvested +25\n {2}redirected +5$/m,
    /^failures by kind:\n {2}timeout +2$/m,
    /^crawler nodes by source \(anwc maintain --nodes\): ok 17, changed 2, gone 1 /m,
    /^crawler nodes by review \(anwc serve\): approved 4, rejected 1, not reviewed 15 /m,
    /^paragraphs met again on other pages: 5 \(the same text 2, near-copies 3\)/m,
    /^retries: 3 link\(s\) needed more than one try$/m,
    /^waiting: 1 link for a retry, next due 12:00:42 UTC \(in 42 s\)$/m,
    /^ {2}host {16} +score +share +pages +nodes\n {2}long-host-name\.test +3 +75\.0% +12 +9 +█{30}$/m,
  ]) assert.match(text, line);

  const bare: StoreSummary = {
    ...sum, nodes: { author: 1, crawler: 0 }, links: {}, outcomes: {}, failures: {}, retries: { retried: 0 },
    nodeStatus: { ok: 0, changed: 0, gone: 0 }, reviews: { unreviewed: 0, approved: 0, rejected: 0 }, copies: { exact: 0, near: 0 }, offTopic: 0,
  };
  assert.deepEqual(storeSummaryLines(bare, [], now, null), [
    'nodes                      1 (author 1, crawler 0)',
    'crawler nodes on no topic  0',
    'meta words                 7',
    'search queries             3',
    'domains                    2',
    'links                      0',
  ], 'no share of no crawler nodes, no empty section');
  const one = (change: Partial<StoreSummary>) => storeSummaryLines({ ...bare, ...change }, [], now, null).slice(6);
  assert.match(one({ nodeStatus: { ok: 0, changed: 0, gone: 1 } }).join(), /^crawler nodes by source .*gone 1/, 'one gone node is enough to speak of');
  assert.match(one({ reviews: { unreviewed: 0, approved: 0, rejected: 1 } }).join(), /^crawler nodes by review .*rejected 1/);
  assert.match(one({ copies: { exact: 0, near: 1 } }).join(), /^paragraphs met again on other pages: 1 /);
});
