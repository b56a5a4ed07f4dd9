import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldText, stillOnPage, verdictOfOutcome } from '../../src/maintain/revalidate.js';
import { buildReport, checksToKeep, sinceLast } from '../../src/maintain/report.js';
import type { TestedDoc } from '../../src/maintain/action.js';
import type { MaintenanceTask } from '../../src/maintain/task.js';

describe('revalidation of a node against its page', () => {
  it('finds the text whatever the spacing, case, punctuation or compatibility forms', () => {
    const page = foldText('<ignored>  The KEEPER climbed —\n the ﬁrst   stairs!  Then more.');
    assert.ok(stillOnPage('the keeper climbed, the first stairs', page));
    assert.ok(!stillOnPage('the keeper climbed the last stairs', page));
    assert.ok(!stillOnPage('keeper climbed the first stair', page), 'whole words only');
  });

  it('says gone for 404, 410 and a name that does not exist; nothing for what may pass', () => {
    assert.deepEqual(verdictOfOutcome('http-error', { status: 410 }), { status: 'gone', why: 'HTTP 410' });
    assert.deepEqual(verdictOfOutcome('http-error', { status: 404 }), { status: 'gone', why: 'HTTP 404' });
    assert.equal(verdictOfOutcome('http-error', { status: 503 }), undefined);
    assert.equal(verdictOfOutcome('http-error', { status: 403 }), undefined);
    assert.deepEqual(verdictOfOutcome('failed', { failure: 'dns', detail: 'old.example: ENOTFOUND' }), { status: 'gone', why: 'host not found (old.example: ENOTFOUND)' });
    assert.equal(verdictOfOutcome('failed', { failure: 'dns', detail: 'old.example: EAI_AGAIN' }), undefined, 'a resolver that cannot answer now is not a verdict');
    assert.equal(verdictOfOutcome('failed', { failure: 'timeout' }), undefined);
    assert.deepEqual(verdictOfOutcome('redirected', { status: 301, to: 'http://b.test/' }), { status: 'changed', why: 'moved to http://b.test/' });
    assert.equal(verdictOfOutcome('not-modified', { status: 304 }), 'unchanged');
    assert.equal(verdictOfOutcome('robots', {}), undefined);
  });
});

describe('what changed since the last run', () => {
  const task: MaintenanceTask = { type: 'tree', name: 't', top: 'http://m.test/' };
  const doc = (url: string, refs: string[], lastModified?: string): TestedDoc => ({
    url, finalUrl: url, status: 200, method: 'GET', contentType: 'text/html', title: '', member: true,
    refs: refs.map((r) => ({ url: r, tag: 'a' })), ...(lastModified ? { lastModified } : {}),
  });
  const run = (docs: TestedDoc[], stored: [string, { kind: string; detail: Record<string, unknown> }][] = []) => buildReport(task, docs, new Map(stored), 10_000);

  it('is nothing on a first run', () => {
    assert.equal(sinceLast(run([doc('http://m.test/', [])]), []), undefined);
  });

  it('lists new, dropped, state changes and a moved Last-Modified, not what was not tested', () => {
    const first = run([doc('http://m.test/', ['http://m.test/a', 'http://m.test/b', 'http://m.test/c']), doc('http://m.test/a', [], 'Mon, 01 Jan 2029 00:00:00 GMT'), doc('http://m.test/c', [])],
      [['http://m.test/b', { kind: 'http-error', detail: { status: 404 } }]]);
    const kept = checksToKeep(first, 5_000);
    assert.deepEqual(sinceLast(first, kept), { previous: new Date(5_000).toISOString(), changes: [] });
    const second = run([doc('http://m.test/', ['http://m.test/a', 'http://m.test/b', 'http://m.test/d', 'http://m.test/x']), doc('http://m.test/a', [], 'Tue, 02 Jan 2029 00:00:00 GMT'), doc('http://m.test/b', []), doc('http://m.test/d', [])]);
    assert.deepEqual(sinceLast(second, kept)!.changes, [
      { url: 'http://m.test/a', was: 'ok', now: 'ok', wasLastModified: 'Mon, 01 Jan 2029 00:00:00 GMT', lastModified: 'Tue, 02 Jan 2029 00:00:00 GMT' },
      { url: 'http://m.test/b', was: 'broken', now: 'ok' },
      { url: 'http://m.test/c', was: 'ok', now: 'absent' },
      { url: 'http://m.test/d', was: 'absent', now: 'ok' },
    ]);
  });
});
