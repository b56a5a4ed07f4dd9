import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityError } from '../../src/walk/activity/errors.js';
import { printValue, readSexprs } from '../../src/walk/activity/sexpr.js';
import type { Value } from '../../src/walk/activity/spec.js';

const one = (text: string): Value => {
  const forms = readSexprs(text, 'r.w4');
  assert.equal(forms.length, 1, text);
  return forms[0]!;
};
const lineOf = (text: string): string => {
  try {
    readSexprs(text, 'r.w4');
  } catch (e) {
    assert.ok(e instanceof ActivityError, String(e));
    return e.toLine();
  }
  return assert.fail(`${text} read`);
};

test("#'X reads as (function X) and 'X as (quote X), each part at its own line:col", () => {
  const v = one("(header-server\n  #'(lambda (server) (search \"CL-HTTP\" server)))");
  assert.equal(v.kind, 'list');
  const fn = (v as { items: Value[] }).items[1]!;
  assert.deepEqual(fn.at, { line: 2, col: 3 });
  assert.equal(fn.kind, 'list');
  const [head, lambda] = (fn as { items: Value[] }).items;
  assert.deepEqual(head, { kind: 'symbol', value: 'function', at: { line: 2, col: 3 } });
  assert.deepEqual(lambda!.at, { line: 2, col: 5 });
  assert.equal(printValue(fn), "#'(lambda (server) (search \"CL-HTTP\" server))");
  assert.equal(printValue(one("'stringp")), "'stringp");
  assert.deepEqual((one("'stringp") as { items: Value[] }).items.map((x) => (x as { value: string }).value), ['quote', 'stringp']);
  assert.equal(printValue(one("#'  null")), "#'null", 'space after #\' is allowed, as in Lisp');
  // A quote ends the symbol before it, as Lisp's reader has it.
  assert.equal(printValue(one("(a'b)")), "(a 'b)");
});

test('printing then reading gives the same forms back', () => {
  for (const text of ["#'(lambda (value available-p) (and available-p (search \"Apache\" value :test #'char-equal)))", "(quote (function x))", "(function)"]) {
    const v = one(text);
    const strip = (x: Value) => JSON.stringify(x, (k, val) => (k === 'at' ? undefined : val));
    assert.equal(strip(one(printValue(v))), strip(v), text);
  }
});

test('the reader evaluates nothing: #. and the other # forms and backquote are one line at their place', () => {
  assert.equal(lineOf('(a\n  #.(delete-file "x"))'), "r.w4:2:3: #. (read-time evaluation) is refused: an activity file never runs code; #' (function) is the only # form read");
  assert.match(lineOf('(a #\\x)'), /^r\.w4:1:4: #\\ is not part of the Lisp anwc reads; #' \(function\) is the only # form read$/);
  assert.match(lineOf('(a #+sbcl b)'), /^r\.w4:1:4: #\+ is not part/);
  assert.match(lineOf('(a `(b ,c))'), /^r\.w4:1:4: ` \(backquote\) is not read/);
  assert.match(lineOf("(a #')"), /^r\.w4:1:4: #' needs something after it/);
  assert.match(lineOf("'".repeat(100_000) + 'x'), /^r\.w4:1:\d+: forms nested deeper than 64/);
  assert.match(lineOf("#'".repeat(100_000) + 'x'), /^r\.w4:1:\d+: forms nested deeper than 64/);
});

test('text from inside another file is placed at its origin', () => {
  const v = readSexprs("#'(lambda (x) y)", 'j.json', { line: 3, col: 10 })[0]!;
  assert.deepEqual(v.at, { line: 3, col: 10 });
  assert.deepEqual((v as { items: Value[] }).items[1]!.at, { line: 3, col: 12 });
});
