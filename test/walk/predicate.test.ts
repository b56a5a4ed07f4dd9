import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePredicate, PredicateSyntaxError } from '../../src/walk/constraints/predicate.js';
import { compileConstraints } from '../../src/walk/activity/compile.js';
import { parseConstraintText } from '../../src/walk/activity/parse.js';
import type { Candidate } from '../../src/walk/constraints/constraint.js';

const on = (value: string | number | undefined) => () => value;
const holds = (src: string, value: string | number | undefined) => compilePredicate(src, [], 'value')(on(value));

test('the predicate language: comparisons, text tests, presence', () => {
  assert.equal(holds('> 10', '11'), true);
  assert.equal(holds('> 10', '9'), false);
  assert.equal(holds('= "gzip"', 'gzip'), true);
  assert.equal(holds('/= "gzip"', 'br'), true);
  assert.equal(holds('contains "PACHE"', 'Apache/2'), true);
  assert.equal(holds('matches /^apache\\/2/i', 'Apache/2.4'), true);
  assert.equal(holds('matches /^nginx/', 'Apache'), false);
  assert.equal(holds('present', undefined), false);
  assert.equal(holds('absent', undefined), true);
  assert.equal(holds('contains "x"', undefined), false);
});

test('and binds tighter than or; not and parentheses group', () => {
  assert.equal(holds('starts-with "a" or starts-with "b" and ends-with "z"', 'ax'), true);
  assert.equal(holds('(starts-with "a" or starts-with "b") and ends-with "z"', 'ax'), false);
  assert.equal(holds('not contains "x"', 'abc'), true);
  assert.equal(holds('not (contains "a" or contains "b")', 'abc'), false);
});

test('a mistake is a PredicateSyntaxError at its offset; no text ever runs as code', () => {
  const offset = (src: string) => {
    try {
      compilePredicate(src, ['host'], undefined);
    } catch (e) {
      assert.ok(e instanceof PredicateSyntaxError);
      return e.offset;
    }
    return -1;
  };
  assert.equal(offset('host contains'), 13);
  assert.equal(offset('hots = "a"'), 0);
  assert.equal(offset('host = "a" and'), 14);
  assert.equal(offset('host = process.exit(1)'), 7);
  assert.equal(offset('host matches /(/'), 13);
});

test('circumstances: or, not, and if with a nil alternate, as the paper defines them', () => {
  const c = (url: string, headers?: Record<string, string>): Candidate => ({ url: new URL(url), depth: 1, headers });
  const [or, not, cond] = compileConstraints(
    parseConstraintText('((or (uri-search "a") (uri-search "b")) (not (uri-extension "gif")) (if ((uri-scheme :https)) ((header-server "present")) nil))'),
  );
  assert.equal(or!.test(c('http://x.test/b')), true);
  assert.equal(or!.test(c('http://x.test/c')), false);
  assert.equal(not!.test(c('http://x.test/p.gif')), false);
  assert.equal(not!.test(c('http://x.test/p.html')), true);
  assert.equal(cond!.cost, 'header');
  assert.equal(cond!.test(c('http://x.test/')), true);
  assert.equal(cond!.test(c('https://x.test/', { server: 'x' })), true);
  assert.equal(cond!.test(c('https://x.test/', {})), false);
});
