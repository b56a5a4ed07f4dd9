import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseJsonActivity, parseSexprActivity } from '../../src/walk/activity/parse.js';
import type { Activity, Value } from '../../src/walk/activity/spec.js';

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

/** Activities of our own, each in a form the W4 paper writes (appendices A and B), beside today's spellings. */
const PAPER_FORMS: { [file: string]: { text: string; shows: RegExp } } = {
  'apache-or-silent.w4': {
    text: `; Pages served by Apache, or by a server that does not say which it is.
(define-activity apache-or-silent
  :constraint-set ((depth 2)
                   (header-predicate :server
                     #'(lambda (value available-p)
                         (or (not available-p) (search "apache" value :test #'char-equal)))))
  :actions ((trace) (walk-inferiors)))
`,
    shows: /^ {2}header: \(header-predicate :server #'\(lambda \(value available-p\) \(or \(not available-p\) \(search "apache" value :test #'char-equal\)\)\)\)$/m,
  },
  'lisp-servers.w4': {
    text: '(define-activity lisp-servers :constraint-set ((header-server #\'(lambda (server) (search "CL-HTTP" server)))) :actions ((trace)))\n',
    shows: /^ {2}header: \(header-server #'\(lambda \(server\) \(search "CL-HTTP" server\)\)\)$/m,
  },
  'docs-only.w4': {
    text: `(define-activity docs-only
  :constraint-set ((uri-satisfies #'(lambda (uri)
                                      (and (string= (scheme uri) "http")
                                           (search "/docs/" (path-directory-string uri)))))
                   (resource-satisfies #'stringp))
  :actions ((walk-inferiors)))
`,
    shows: /^ {2}uri: \(uri-satisfies #'\(lambda \(uri\) \(and \(string= \(scheme uri\) "http"\) \(search "\/docs\/" \(path-directory-string uri\)\)\)\)\)\n {2}resource: \(resource-satisfies #'stringp\)$/m,
  },
  'salton-paper.w4': {
    text: '(define-activity salton-paper :actions ((salton-check-uri 0.02 ("lisp" "server") (0.9 0.5) *standard-output*) (walk-inferiors)))\n',
    shows: /^ {2}salton-check-uri$/m,
  },
  'search-first.w4': {
    text: '(define-activity search-first :strategy bfs :actions ((walk-sorted-inferiors (:search "lisp" "web"))))\n',
    shows: /^ {2}walk-sorted-inferiors$/m,
  },
  'docs-first.w4': {
    text: `(define-activity docs-first
  :actions ((walk-sorted-inferiors #'(lambda (a b) (and (search "/docs/" (name-string a)) (not (search "/docs/" (name-string b))))))))
`,
    shows: /^ {2}walk-sorted-inferiors$/m,
  },
};

test('anwc activity check takes the paper\'s own forms: #\'(lambda …) predicates, salton-check-uri\'s order, walk-sorted-inferiors\' predicate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-paper-'));
  try {
    for (const [name, { text, shows }] of Object.entries(PAPER_FORMS)) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const r = run('check', file);
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      assert.match(r.stdout, shows, name);
      // show prints the canonical form; that form reads back to the same activity, in both forms.
      const shown = run('show', file);
      assert.equal(shown.status, 0, shown.stderr);
      const again = join(dir, `again-${name}`);
      writeFileSync(again, shown.stdout);
      assert.equal(run('show', again).stdout, shown.stdout, `${name}: show is a fixed point`);
      assert.equal(bare(parseSexprActivity(shown.stdout)), bare(parseSexprActivity(text)), name);
      // JSON writes the Lisp as a string, and reads it back as the same forms (keywords aside, which JSON writes as ":server").
      const json = run('show', file, '--format', 'json');
      const lists = (args: Value[]) => args.filter((v) => v.kind === 'list');
      const lisp = (a: Activity) => bare([...a.constraints.map((c) => (c.kind === 'leaf' ? lists(c.args) : c)), ...a.actions.map((x) => lists(x.args))]);
      assert.equal(lisp(parseJsonActivity(json.stdout)), lisp(parseSexprActivity(text)), `${name}: JSON keeps the Lisp`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('salton-check-uri in the paper\'s order and in anwc\'s earlier order are one action, shown in the paper\'s order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-salton-'));
  try {
    const paper = join(dir, 'paper.w4');
    const ours = join(dir, 'ours.w4');
    writeFileSync(paper, '(define-activity s :actions ((salton-check-uri 0.5 ("lisp" web) (1 0.25))))');
    writeFileSync(ours, '(define-activity s :actions ((salton-check-uri ("lisp" web) (1 0.25) 0.5)))');
    const a = run('show', paper);
    const b = run('show', ours);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.stdout, a.stdout);
    assert.match(a.stdout, /\(salton-check-uri 0\.5 \("lisp" web\) \(1 0\.25\)\)/);
    writeFileSync(paper, '(define-activity s :actions ((salton-check-uri 0.5 ("lisp" "web") (1))))');
    const r = run('check', paper);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `anwc: ${paper}:1:67: expected one weight per word (2); got (1)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a hostile predicate is one line at its line:col and exit 2: deep nesting, an unknown function, eval, #. read-time evaluation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-hostile-'));
  try {
    const cases: [string, RegExp][] = [
      [`(define-activity h\n  :constraint-set ((header-server #'(lambda (s) ${'(not '.repeat(200)}s${')'.repeat(200)}))))`, /:2:\d+: lists nested deeper than 64; flatten the constraint$/],
      ['(define-activity h\n  :constraint-set ((uri-satisfies #\'(lambda (uri) (run-program "sh" uri)))))', /:2:52: unknown function run-program; anwc reads this Lisp: and or if not null/],
      ['(define-activity h\n  :constraint-set ((uri-satisfies #\'(lambda (uri)\n     (eval (read-from-string (name-string uri)))))))', /:3:7: unknown function eval; anwc reads this Lisp/],
      ['(define-activity h\n  :constraint-set ((header-server #.(progn (delete-file "x") #\'stringp))))', /:2:35: #\. \(read-time evaluation\) is refused: an activity file never runs code; #' \(function\) is the only # form read$/],
      ['(define-activity h\n  :actions ((walk-sorted-inferiors #\'(lambda (a b) (eval a)))))', /:2:53: unknown function eval/],
    ];
    for (const [i, [text, line]] of cases.entries()) {
      const file = join(dir, `h${i}.w4`);
      writeFileSync(file, text);
      const r = run('check', file);
      assert.equal(r.status, 2, `${text}\n${r.stdout}`);
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.ok(r.stderr.startsWith(`anwc: ${file}:`), r.stderr);
      assert.match(r.stderr.trim(), line);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
