import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseJsonActivity, parseSexprActivity } from '../../src/walk/activity/parse.js';

const cli = resolve(process.cwd(), 'dist/src/cli/main.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'activity', ...args], { encoding: 'utf8' });
const bare = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'at' || k === 'file' ? undefined : v));

test('anwc activity list names the samples and the harvest with its constraint order', () => {
  const r = run('list');
  assert.equal(r.status, 0, r.stderr);
  for (const n of ['trace-walk', 'map-recent', 'locate-lisp', 'archive-docs']) assert.match(r.stdout, new RegExp(`^${n} `, 'm'));
  assert.match(r.stdout, /^harvest .*context: max-depth \d+; uri: http-scheme/m);
});

test('anwc activity show prints one activity in either canonical form, with the same meaning', () => {
  const sexpr = run('show', 'trace-walk');
  const json = run('show', 'trace-walk', '--format', 'json');
  assert.equal(sexpr.status, 0, sexpr.stderr);
  assert.equal(json.status, 0, json.stderr);
  assert.match(sexpr.stdout, /^\(define-activity trace-walk\n/);
  assert.equal(bare(parseJsonActivity(json.stdout)), bare(parseSexprActivity(sexpr.stdout)));
  const missing = run('show', 'no-such-activity');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^anwc: no activity file or built-in activity named no-such-activity .*trace-walk/);
});

test('anwc activity check prints the resolved order, or one file:line:col line and exit 2', () => {
  const ok = run('check', 'activities/trace-walk.w4');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /context: \(depth 2\)\n {2}uri: \(no-cycles\)\n {2}header: \(header-robots-allowed\)/);
  const dir = mkdtempSync(join(tmpdir(), 'anwc-activity-'));
  try {
    const bad = join(dir, 'bad.w4');
    writeFileSync(bad, '(define-activity bad\n  :constraint-set ((depth 2) (uri-hots "a.test")))\n');
    const r = run('check', bad);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `anwc: ${bad}:2:30: unknown constraint uri-hots; did you mean uri-host?\n`);
    const none = run('check', join(dir, 'absent.w4'));
    assert.equal(none.status, 2);
    assert.equal(none.stderr.trim().split('\n').length, 1);
    assert.doesNotMatch(none.stderr, /\n\s+at /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
