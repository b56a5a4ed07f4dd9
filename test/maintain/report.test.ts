import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestedDoc } from '../../src/maintain/action.js';
import { buildReport, linkState, totals, type StoredOutcome } from '../../src/maintain/report.js';
import { indexHtml, indexJunit, indexMarkdown, indexSarif } from '../../src/maintain/writers.js';

/**
 * The maintenance index as people read it (issue: reports people look at): totals by state first,
 * then what needs fixing, each link once with the pages that hold it counted; refused and untested
 * links listed, not only counted; a page served at `/` and `/index.html` listed once.
 */

const H = 'http://h.test';
const task = { type: 'site' as const, name: 'h', top: `${H}/` };
const doc = (path: string, refs: string[], title = 'Home'): TestedDoc => ({
  url: `${H}${path}`, finalUrl: `${H}${path}`, status: 200, method: 'GET', contentType: 'text/html', title, member: true,
  refs: refs.map((r) => ({ url: r.startsWith('http') ? r : `${H}${r}`, tag: 'a' })),
});

function sample() {
  const home = ['/index.html', '/a.html', '/gone.html', '/old', 'http://private.test/x', 'http://other.test/y'];
  const tested = [
    doc('/', home),
    doc('/index.html', home),
    doc('/a.html', ['/gone.html', '/later.html'], 'A'),
    { ...doc('/old', [], 'Old'), finalUrl: `${H}/new`, member: false },
  ];
  const stored = new Map<string, StoredOutcome>([
    [`${H}/gone.html`, { kind: 'http-error', detail: { status: 404 } }],
    ['http://private.test/x', { kind: 'refused', detail: { reason: 'address-refused', detail: '10.0.0.1 is private' } }],
    ['http://other.test/y', { kind: 'refused', detail: { reason: 'out-of-scope' } }],
  ]);
  return buildReport(task, tested, stored, Date.parse('2026-01-01T00:00:00Z'));
}

describe('the maintenance report', () => {
  it('gives every link one state, counted in the totals', () => {
    const r = sample();
    const states = Object.fromEntries(Object.values(r.checks).map((c) => [c.url.replace(H, ''), linkState(c)]));
    assert.deepEqual(states, {
      '/': 'ok', '/index.html': 'ok', '/a.html': 'ok', '/gone.html': 'broken', '/old': 'moved',
      'http://private.test/x': 'refused', 'http://other.test/y': 'excluded', '/later.html': 'not-tested',
    });
    assert.deepEqual(totals(r), { broken: 1, moved: 1, refused: 1, 'not-tested': 1, excluded: 1, ok: 3, modified: 0, expiring: 0 });
  });

  it('lists a page served at / and /index.html once, and keeps every page that links to a URL', () => {
    const r = sample();
    assert.deepEqual(r.docs.map((d) => d.url), [`${H}/`, `${H}/a.html`]);
    assert.deepEqual(r.referrers[`${H}/gone.html`], [`${H}/`, `${H}/index.html`, `${H}/a.html`]);
  });

  it('tells broken and moved links with their pages, and what was modified or expires within the days asked, at the edges', () => {
    const now = Date.parse('2026-01-10T00:00:00Z');
    const day = 86_400_000;
    const at = (ms: number) => new Date(ms).toUTCString();
    const dated = (path: string, dates: { lastModified?: number; expires?: number }, member = true): TestedDoc => ({
      ...doc(path, [], path), member,
      ...(dates.lastModified !== undefined ? { lastModified: at(dates.lastModified) } : {}),
      ...(dates.expires !== undefined ? { expires: at(dates.expires) } : {}),
    });
    const tested = [
      doc('/', ['/m3', '/m3-over', '/m-now', '/m-future', '/e7', '/e7-over', '/e-now', '/e-past', '/leaf-e', '/junk', '/gone', '/old']),
      dated('/m3', { lastModified: now - 3 * day }),
      dated('/m-now', { lastModified: now }),
      dated('/e-now', { expires: now }),
      dated('/m3-over', { lastModified: now - 3 * day - 1000 }),
      dated('/m-future', { lastModified: now + day }),
      dated('/e7', { expires: now + 7 * day }),
      dated('/e7-over', { expires: now + 7 * day + 1000 }),
      dated('/e-past', { expires: now - 1000 }),
      dated('/leaf-e', { expires: now + day }, false),
      { ...doc('/junk', [], 'Junk'), lastModified: 'not a date', expires: 'soon' },
      { ...doc('/old', [], 'Old'), finalUrl: `${H}/new`, lastModified: at(now - day), expires: at(now + day) },
    ];
    const stored = new Map<string, StoredOutcome>([[`${H}/gone`, { kind: 'http-error', detail: { status: 410 } }]]);
    const r = buildReport({ ...task, changedDays: 3, expiredDays: 7 }, tested, stored, now);
    const paths = (cs: { url: string }[]) => cs.map((c) => c.url.replace(H, ''));
    assert.deepEqual(paths(r.interesting.modified), ['/m3', '/m-now'], 'within 3 days, not past them nor in the future; a moved page is not "modified"');
    assert.deepEqual(paths(r.interesting.expiring), ['/e7', '/e-now'], 'within 7 days ahead, of the task\'s own documents that answered, not a leaf\'s nor a moved one\'s');
    assert.deepEqual(paths(r.interesting.moved), ['/old']);
    assert.deepEqual(r.interesting.broken.map((b) => [b.check.url.replace(H, ''), paths(b.from.map((url) => ({ url })))]), [['/gone', ['/']]]);
    const none = buildReport(task, tested, stored, now);
    assert.deepEqual([none.interesting.modified, none.interesting.expiring], [[], []], 'nothing without --changed and --expired');
  });

  it('keeps two documents whose references differ, though one is the other\'s index.html', () => {
    const r = buildReport(task, [doc('/', ['/a.html']), doc('/index.html', ['/b.html'])], new Map());
    assert.equal(r.docs.length, 2);
  });
});

describe('the HTML index', () => {
  const html = indexHtml(sample(), { options: 'site' });
  const at = (s: string) => {
    const i = html.indexOf(s);
    assert.ok(i >= 0, `${s} is in the index`);
    return i;
  };

  it('opens with the totals by state, in words beside each colour', () => {
    assert.match(html, /<li class="broken"><span class="swatch" aria-hidden="true"><\/span><strong>1<\/strong> broken<\/li>/);
    assert.match(html, /<strong>1<\/strong> refused \(address policy or robots\.txt\)/);
    assert.ok(at('id="totals"') < at('id="broken"'));
  });

  it('puts broken and moved links before the documents, then refused and untested ones, each link once with its pages behind a disclosure', () => {
    assert.ok(at('id="broken"') < at('id="moved"'));
    assert.ok(at('id="moved"') < at('id="refused"'));
    assert.ok(at('id="refused"') < at('id="not-tested"'));
    assert.ok(at('id="not-tested"') < at('id="documents"'));
    const broken = html.slice(at('id="broken"'), at('id="moved"'));
    assert.equal(broken.match(/<tr class="broken">/g)?.length, 1, 'the 404 linked from three pages is one row');
    assert.match(broken, /<details><summary>on 3 pages<\/summary><ul><li><a href="http:\/\/h\.test\/">/);
    assert.match(html.slice(at('id="refused"')), /private\.test\/x<\/a><\/td><td>refused by the address policy \(a private or loopback address\): --resolve HOST:ADDRESS or --allow-private walks it/);
  });
});

describe('the Markdown index', () => {
  it('has the totals table and each problem link once with its page count; a | in a URL cannot break the table', () => {
    const r = sample();
    r.checks[`${H}/gone.html`]!.url = `${H}/gone.html?a|b`;
    const md = indexMarkdown(r);
    assert.match(md, /^\| broken \| 1 \|$/m);
    assert.match(md, /^## broken \(1\)$/m);
    assert.match(md, /^\| http:\/\/h\.test\/gone\.html\?a\\\|b \| broken: HTTP 404 \| 0 \|$/m);
    assert.match(md, /^\| http:\/\/private\.test\/x \| refused by the address policy .* \| 2 \|$/m);
  });
});

describe('JUnit and SARIF', () => {
  it('JUnit has a case for every link: refused, excluded and untested ones skipped with why', () => {
    const r = sample();
    const xml = indexJunit(r);
    assert.equal(xml.match(/<testcase /g)?.length, Object.keys(r.checks).length);
    assert.match(xml, /name="http:\/\/h\.test\/later\.html"><skipped message="not tested"\/>/);
    assert.match(xml, /name="http:\/\/private\.test\/x"><skipped message="refused by the address policy/);
    assert.match(xml, /skipped="3"/);
  });

  it('SARIF notes the links that were refused or not tested, beside the broken and moved ones', () => {
    const sarif = JSON.parse(indexSarif(sample(), '0')) as { runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[] };
    const byRule = (id: string) => sarif.runs[0]!.results.filter((x) => x.ruleId === id);
    assert.equal(byRule('link-refused').length, 1);
    assert.equal(byRule('link-not-tested')[0]!.level, 'note');
    assert.match(byRule('link-not-tested')[0]!.message.text, /later\.html: not tested/);
  });
});
