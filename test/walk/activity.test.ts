import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConstraintSet, type Candidate } from '../../src/walk/constraints/constraint.js';
import { compileConstraints } from '../../src/walk/activity/compile.js';
import { ActivityError } from '../../src/walk/activity/errors.js';
import { parseConstraintText, parseJsonActivity, parseSexprActivity } from '../../src/walk/activity/parse.js';
import { printConstraint } from '../../src/walk/activity/print.js';
import { SHARED_DIR, needsShared } from '../support/shared.js';

const seeds = resolve(SHARED_DIR, 'seeds');
const paperFile = existsSync(seeds) ? readdirSync(seeds).find((f) => f.startsWith('000_')) : undefined;
const paper = paperFile ? readFileSync(resolve(seeds, paperFile), 'utf8') : undefined;
const skip = needsShared('seeds') || (paper ? false : `needs the W4 paper (000_*.txt) in ${seeds} (set ANWC_SHARED=DIR)`);
/** The text file keeps the scan's <pre> tags around some lines of the printed figures. */
const untag = (s: string) => s.replace(/<\/?pre>/g, '');

const cand = (url: string, more: Partial<Candidate> = {}): Candidate => ({ url: new URL(url), depth: 1, ...more });

describe("the W4 paper's own forms", { skip }, () => {
  test('Definition 3 of the W4 paper parses as printed', () => {
    const start = paper!.indexOf('(define-activity', paper!.indexOf('Definition 3:'));
    const end = paper!.indexOf('5. Applications', start);
    const a = parseSexprActivity(untag(paper!.slice(start, end)), 'w4-paper');
    assert.equal(a.name, 'trace-walk');
    assert.equal(a.documentation, 'Traces the Web Walking activity.');
    assert.equal(a.operator, 'JCMa@ai.mit.edu');
    assert.equal(a.reportStream, '*standard-output*');
    assert.deepEqual(a.constraints.map(printConstraint), ['(no-cycles)', '(depth 2)', '(header-robots-allowed)']);
    assert.deepEqual(a.actions.map((x) => x.name), ['trace', 'trace-headers', 'walk-inferiors']);
    assert.deepEqual(new ConstraintSet(compileConstraints(a.constraints)).describe(), ['context: (depth 2)', 'uri: (no-cycles)', 'header: (header-robots-allowed)']);
  });

  test('the mapper\'s conditional constraint parses and keeps only HTML modified after 1996-01-01', () => {
    const line = paper!.split('\n').find((l) => l.includes('((if ((header-content-type'))!;
    // The scan reads the form's final nil as "mil"; the printed figure says nil.
    const text = untag(line).replace(/\bmil\)\)$/, 'nil))');
    const [c] = compileConstraints(parseConstraintText(text, 'figure-1'));
    assert.equal(c!.cost, 'header');
    const page = (type: string, modified: string) => cand('http://a.test/p', { headers: { 'content-type': type, 'last-modified': modified } });
    assert.equal(c!.test(page('text/html', 'Tue, 02 Jan 1996 00:00:00 GMT')), true);
    assert.equal(c!.test(page('text/html', 'Fri, 01 Dec 1995 00:00:00 GMT')), false);
    assert.equal(c!.test(page('image/gif', 'Fri, 01 Dec 1995 00:00:00 GMT')), true);
  });

  test('the locator\'s form (with the paper\'s url-search spelling) drops the URLs it names', () => {
    const line = paper!.split('\n').find((l) => l.startsWith('((not ((or (url-search'))!;
    const [c] = compileConstraints(parseConstraintText(line, 'figure-3'));
    assert.equal(c!.cost, 'uri');
    assert.equal(c!.test(cand('http://a.test/cl-http/standards/http.html')), false);
    assert.equal(c!.test(cand('http://a.test/cl-http/faq.html')), true);
  });
});

test('the shipped samples parse, and both forms of one activity compile to the same order', () => {
  const dir = resolve(process.cwd(), 'activities');
  const files = readdirSync(dir).filter((f) => /\.(w4|json)$/.test(f) && f !== 'activity.schema.json');
  assert.ok(files.length >= 4, files.join(', '));
  for (const f of files) {
    const src = readFileSync(resolve(dir, f), 'utf8');
    const a = f.endsWith('.json') ? parseJsonActivity(src, f) : parseSexprActivity(src, f);
    assert.ok(a.constraints.length > 0 && a.actions.length > 0, f);
  }
});

function errorOf(fn: () => unknown): ActivityError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ActivityError, String(e));
    return e;
  }
  assert.fail('expected an ActivityError');
}

test('an unknown constraint is reported at file:line:col with the nearest known names', () => {
  const e = errorOf(() => parseSexprActivity('(define-activity w\n  :constraint-set ((no-cycles) (depht 2)))', 'w.w4'));
  assert.equal(e.code, 'unknown-constraint');
  assert.equal(e.toLine(), 'w.w4:2:32: unknown constraint depht; did you mean depth?');
  const j = errorOf(() => parseJsonActivity('{"name": "w",\n "constraints": [["uri-hots", "a.test"]]}', 'w.json'));
  assert.match(j.toLine(), /^w\.json:2:18: unknown constraint uri-hots; did you mean uri-host/);
});

test('syntax and argument mistakes name the place and the fix', () => {
  assert.match(errorOf(() => parseSexprActivity('(define-activity w\n :actions ((trace)', 'a.w4')).toLine(), /^a\.w4:2:11: unclosed \(; add the missing \)$/);
  assert.match(errorOf(() => parseSexprActivity('(define-activity w :constraint-set ((depth "two")))', 'b.w4')).toLine(), /^b\.w4:1:44: expected a whole number/);
  assert.match(errorOf(() => parseSexprActivity('(define-activity w :actions ((trace-header)))', 'c.w4')).toLine(), /^c\.w4:1:30: unknown action trace-header; did you mean trace-headers/);
  assert.match(errorOf(() => parseSexprActivity('(define-activity w :constrants nil)', 'd.w4')).toLine(), /^d\.w4:1:20: unknown key :constrants; did you mean :constraint-set/);
  assert.match(errorOf(() => parseJsonActivity('{"name": "w", "constraints": [["header-server", "contains apache"]]}', 'e.json')).toLine(), /^e\.json:1:59: predicate: expected a "string"/);
  assert.match(errorOf(() => parseJsonActivity('{"name": "w", "strategy": "zigzag"}', 'f.json')).toLine(), /unknown strategy zigzag; use one of roulette, bfs, dfs/);
  const deep = 100_000;
  assert.match(errorOf(() => parseSexprActivity(`(define-activity w :constraint-set (${'(not '.repeat(deep)}`, 'h.w4')).toLine(), /^h\.w4:1:\d+: lists nested deeper than 64/);
  assert.match(errorOf(() => parseJsonActivity(`{"name": "w", "constraints": ${'['.repeat(deep)}`, 'i.json')).toLine(), /^i\.json:1:\d+: arrays nested deeper than 64/);
  assert.match(errorOf(() => parseSexprActivity('(define-activity w :actions ((salton-check-uri ("a" "b") (1) 0.1)))', 'g.w4')).toLine(), /^g\.w4:1:58: expected one weight per word \(2\); got \(1\)$/);
});
