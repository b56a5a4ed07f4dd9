import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileConstraints } from '../../src/walk/activity/compile.js';
import { ActivityError } from '../../src/walk/activity/errors.js';
import { compileLispFunction, LispUrl, type Datum, type Signature } from '../../src/walk/activity/lisp.js';
import { parseConstraintText, parseJsonActivity } from '../../src/walk/activity/parse.js';
import { readSexprs } from '../../src/walk/activity/sexpr.js';
import { ConstraintSet, type Candidate } from '../../src/walk/constraints/constraint.js';

/** The paper's Lisp predicates, translated and run on data; nothing they say is ever evaluated as code. */

const SERVER: Signature = { caller: 'header-server', params: [{ name: 'server', kind: 'text' }] };
const HEADER: Signature = { caller: 'header-predicate', params: [{ name: 'value', kind: 'any' }, { name: 'available-p', kind: 'boolean' }] };
const URI: Signature = { caller: 'uri-satisfies', params: [{ name: 'uri', kind: 'url' }] };

const fn = (text: string, sig: Signature) => compileLispFunction(readSexprs(text, 'l.w4')[0]!, sig, 'l.w4');
const holds = (text: string, sig: Signature, ...args: Datum[]) => fn(text, sig)(args);
const url = (href: string, anchor?: string) => new LispUrl(new URL(href), anchor);
const lineOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ActivityError, String(e));
    return e.toLine();
  }
  return assert.fail('no error');
};

test('search is case-sensitive as in CL, unless :test is #\'char-equal or #\'equalp', () => {
  const server = "#'(lambda (server) (search \"CL-HTTP\" server))";
  assert.equal(holds(server, SERVER, 'CL-HTTP/70.218 (Macintosh Common Lisp)'), true);
  assert.equal(holds(server, SERVER, 'cl-http/70'), false);
  assert.equal(holds("#'(lambda (s) (search \"cl-http\" s :test #'char-equal))", SERVER, 'CL-HTTP/70'), true);
  assert.equal(holds("#'(lambda (s) (search \"cl-http\" s :test #'equalp))", SERVER, 'CL-HTTP/70'), true);
  assert.equal(holds("#'(lambda (s) (search \"cl-http\" s :test #'char=))", SERVER, 'CL-HTTP/70'), false);
  // A nil haystack is the empty sequence: an absent header is searched, and holds nothing.
  assert.equal(holds("#'(lambda (v a) (declare (ignore a)) (search \"x\" v))", HEADER, null, null), false);
  assert.equal(holds("#'(lambda (v a) (declare (ignore a)) (search \"\" v))", HEADER, null, null), true, 'search gives 0, which is true');
});

test('and, or, not, null, if and the comparisons follow CL', () => {
  const apache = "#'(lambda (value available-p) (and available-p (search \"Apache\" value)))";
  assert.equal(holds(apache, HEADER, 'Apache/2.4', true), true);
  assert.equal(holds(apache, HEADER, null, null), false);
  assert.equal(holds("#'(lambda (value available-p) (or (not available-p) (string= value \"nginx\")))", HEADER, null, null), true);
  assert.equal(holds("#'(lambda (value available-p) (or (not available-p) (string= value \"nginx\")))", HEADER, 'NGINX', true), false);
  assert.equal(holds("#'(lambda (value available-p) (string-equal value \"nginx\"))", HEADER, 'NGINX', true), true);
  assert.equal(holds("#'(lambda (v p) (and p (numberp v) (< 100 v 2000)))", HEADER, 500, true), true);
  assert.equal(holds("#'(lambda (v p) (and p (numberp v) (< 100 v 2000)))", HEADER, 2000, true), false);
  assert.equal(holds("#'(lambda (v p) (and p (>= v 3029461200) (/= v 0)))", HEADER, 3029461200, true), true);
  assert.equal(holds("#'(lambda (v p) (if p (equal v \"a\") t))", HEADER, null, null), true);
  assert.equal(holds("#'(lambda (v p) (if p (equal v \"a\") t))", HEADER, 'A', true), false);
  assert.equal(holds("#'(lambda (v p) (if p (equalp v \"a\") t))", HEADER, 'A', true), true);
  assert.equal(holds("#'(lambda (v p) (null p))", HEADER, null, null), true);
  assert.equal(holds("#'(lambda (v p) (cl:stringp v))", HEADER, 'x', true), true, 'a cl: prefix is read');
});

test('named functions: #\'stringp, \'null, a bare symbol, as funcall takes them', () => {
  assert.equal(holds("#'stringp", SERVER, 'Apache'), true);
  assert.equal(holds("'null", SERVER, 'Apache'), false);
  assert.equal(holds('numberp', SERVER, 'Apache'), false);
  assert.match(lineOf(() => fn("#'stringp", HEADER)), /^l\.w4:1:3: stringp takes 1 argument; header-predicate calls its predicate with \(value available-p\); write #'\(lambda \(value available-p\) …\)$/);
});

test('a URL answers CL-HTTP\'s accessors; a link also its anchor text', () => {
  const u = url('http://Docs.example.test:8080/cl-http/w4/walker.html?q=1');
  const is = (form: string) => holds(`#'(lambda (uri) ${form})`, URI, u);
  assert.equal(is('(string= (name-string uri) "http://docs.example.test:8080/cl-http/w4/walker.html?q=1")'), true);
  assert.equal(is('(string= (host-string uri) "docs.example.test")'), true);
  assert.equal(is('(= (host-port uri) 8080)'), true);
  assert.equal(is('(string= (scheme uri) "http")'), true);
  assert.equal(is('(string= (path-directory-string uri) "/cl-http/w4/")'), true);
  assert.equal(is('(string= (object uri) "walker")'), true);
  assert.equal(is('(string= (url:extension uri) "html")'), true);
  assert.equal(is('(string= (search-suffix uri) "q=1")'), true);
  assert.equal(is('(null (anchor-text uri))'), true);
  assert.equal(holds("#'(lambda (uri) (null (object uri)))", URI, url('http://a.test/dir/')), true, 'a path has no object');
  assert.equal(holds("#'(lambda (uri) (search \"Lisp\" (anchor-text uri)))", URI, url('http://a.test/', 'Common Lisp')), true);
});

test('what is outside the subset is one line at its line:col, naming what is read', () => {
  const sub = /anwc reads this Lisp: and or if not null .* search; on a URL: name-string host-string/;
  const eval_ = lineOf(() => fn("#'(lambda (uri)\n   (eval uri))", URI));
  assert.match(eval_, /^l\.w4:2:5: unknown function eval; /);
  assert.match(eval_, sub);
  assert.match(lineOf(() => fn("#'(lambda (uri) (funcall #'name-string uri))", URI)), /^l\.w4:1:18: unknown function funcall/);
  assert.match(lineOf(() => fn("#'(lambda (uri) (search \"a\" uri-name))", URI)), /^l\.w4:1:29: unknown variable uri-name; the lambda's parameters are uri$/);
  assert.match(lineOf(() => fn("#'(lambda (server) (name-string server))", SERVER)), /^l\.w4:1:33: name-string takes a URL, and server is a string; header-server calls its predicate with \(server\)$/);
  assert.match(lineOf(() => fn("#'(lambda (s) (= s 3))", SERVER)), /^l\.w4:1:18: = takes numbers, and s is a string; string=, string-equal and search compare text/);
  assert.match(lineOf(() => fn("#'(lambda (a b) t)", SERVER)), /^l\.w4:1:11: the lambda takes 2 parameters; header-server calls its predicate with \(server\)/);
  assert.match(lineOf(() => fn("#'(lambda (s &rest more) t)", SERVER)), /^l\.w4:1:14: &rest is not read in a lambda list/);
  assert.match(lineOf(() => fn("#'(lambda (s) (search \"a\" s :start2 3))", SERVER)), /^l\.w4:1:29: search reads only :test, got :start2; write \(search NEEDLE HAYSTACK :test #'char-equal\), or leave :test out$/);
  assert.match(lineOf(() => fn("#'(lambda (s) (search \"a\"))", SERVER)), /^l\.w4:1:15: search takes NEEDLE HAYSTACK and an optional :test FUNCTION/);
  assert.match(lineOf(() => fn("#'(lambda (s) (search \"a\" s :test #'string<))", SERVER)), /^l\.w4:1:35: search's :test must be one of #'char-equal/);
  assert.match(lineOf(() => fn("#'(lambda (s) (declare (special s)) t)", SERVER)), /^l\.w4:1:24: only \(declare \(ignore PARAMETER …\)\) is read/);
  assert.match(lineOf(() => fn("#'(lambda (s) ((lambda (x) x) s))", SERVER)), /^l\.w4:1:15: expected a call/);
  assert.match(lineOf(() => fn("#'(lambda (s) (function s))", SERVER)), /^l\.w4:1:16: function is read only as the predicate itself/);
  assert.match(lineOf(() => fn("#'car", SERVER)), /^l\.w4:1:3: unknown function car; anwc reads this Lisp/);
});

const at = (href: string, more: Partial<Candidate> = {}): Candidate => ({ url: new URL(href), depth: 1, ...more });

test('the paper\'s forms compile to constraints that decide as they say, in the class of their constraint', () => {
  const set = compileConstraints(parseConstraintText(`((header-predicate :server #'(lambda (value available-p) (and available-p (search "Apache" value))))
    (header-server #'(lambda (server) (search "CL-HTTP" server)))
    (uri-satisfies #'(lambda (uri) (search "docs" (name-string uri))))
    (resource-satisfies #'(lambda (body) (search "lisp" body :test #'char-equal)))
    (header-predicate :content-length #'(lambda (length found) (and found (< length 100)))))`, 'c.w4'));
  const [apache, clhttp, docs, lisp, small] = set;
  assert.deepEqual(set.map((k) => k!.cost), ['header', 'header', 'uri', 'resource', 'header']);
  assert.equal(apache!.test(at('http://a.test/', { headers: { Server: 'Apache/2.4.62' } })), true);
  assert.equal(apache!.test(at('http://a.test/', { headers: { Server: 'nginx' } })), false);
  assert.equal(apache!.test(at('http://a.test/', { headers: {} })), false);
  assert.equal(clhttp!.test(at('http://a.test/', { headers: { Server: 'CL-HTTP/70.218' } })), true);
  assert.equal(clhttp!.test(at('http://a.test/', { headers: {} })), false, 'no Server header: NIL, as the paper says');
  assert.equal(docs!.test(at('http://a.test/docs/x.html')), true);
  assert.equal(docs!.test(at('http://a.test/Docs/x.html')), false);
  assert.equal(lisp!.test(at('http://a.test/', { headers: { 'content-type': 'text/html' }, body: 'Common LISP' })), true);
  assert.equal(lisp!.test(at('http://a.test/', { headers: { 'content-type': 'image/png' }, body: 'lisp' })), false);
  assert.equal(small!.test(at('http://a.test/', { headers: { 'content-length': '99' } })), true, 'content-length is a number, as CL-HTTP parses it');
  assert.equal(small!.test(at('http://a.test/', { headers: { 'content-length': '100' } })), false);
});

test('a predicate that meets data of the wrong type rejects, and says why (fails closed)', () => {
  const [k] = compileConstraints(parseConstraintText("((header-predicate :etag #'(lambda (v p) (and p (< v 3)))))", 'c.w4'));
  const v = new ConstraintSet([k!]).check(at('http://a.test/', { headers: { etag: '"abc"' } }));
  assert.equal(v.pass, false);
  assert.match(v.pass ? '' : v.detail ?? '', /^threw: < takes numbers, got "\\"abc\\""$/);
});

test('JSON writes a Lisp predicate as a string, read at its place in the file', () => {
  const a = parseJsonActivity('{"name": "j",\n "constraints": [["header-server", "#\'(lambda (server) (search \\"CL-HTTP\\" server))"]]}', 'j.json');
  const [k] = compileConstraints(a.constraints);
  assert.equal(k!.test(at('http://a.test/', { headers: { server: 'CL-HTTP/70' } })), true);
  assert.equal(k!.name, '(header-server #\'(lambda (server) (search "CL-HTTP" server)))', 'the model holds the form, not the string');
  assert.match(
    lineOf(() => parseJsonActivity('{"name": "j",\n "constraints": [["uri-satisfies", "#\'(lambda (uri) (eval uri))"]]}', 'j.json')),
    /^j\.json:2:54: unknown function eval/,
  );
});
