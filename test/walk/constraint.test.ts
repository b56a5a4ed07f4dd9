import { test } from 'node:test';
import assert from 'node:assert/strict';
import { and, constraint, ConstraintSet, ifThen, not, or, type Candidate } from '../../src/walk/constraints/constraint.js';
import { hosts, maxDepth, notBinaryExtension, sameHost } from '../../src/walk/constraints/builtin.js';

const cand = (url: string, depth = 0, referrer?: string): Candidate => ({ url: new URL(url), depth, referrer });

test('a set runs cheap classes first and stops at the first rejection', () => {
  const ran: string[] = [];
  const spy = (name: string, cost: 'context' | 'uri' | 'header' | 'resource', pass: boolean) =>
    constraint(name, cost, () => {
      ran.push(name);
      return pass;
    });
  const set = new ConstraintSet([spy('body', 'resource', true), spy('head', 'header', true), spy('scope', 'uri', false), spy('depth', 'context', true)]);
  assert.deepEqual(set.describe(), ['context: depth', 'uri: scope', 'header: head', 'resource: body']);
  const v = set.check(cand('http://a.test/'));
  assert.deepEqual(v, { pass: false, constraint: 'scope', cost: 'uri', detail: undefined });
  assert.deepEqual(ran, ['depth', 'scope']);
});

test('check up to a class leaves the costlier constraints for later', () => {
  const body = constraint('has-body', 'resource', (c) => c.body !== undefined);
  const set = new ConstraintSet([body, maxDepth(2)]);
  assert.equal(set.check(cand('http://a.test/', 1), 'uri').pass, true);
  assert.equal(set.check(cand('http://a.test/', 1), 'resource').pass, false);
  assert.equal(set.check(cand('http://a.test/', 3), 'uri').pass, false);
});

test('a constraint that throws rejects, with the error kept', () => {
  const set = new ConstraintSet([constraint('boom', 'uri', () => { throw new Error('bad pattern'); })]);
  const v = set.check(cand('http://a.test/'));
  assert.equal(v.pass, false);
  assert.ok(!v.pass && v.constraint === 'boom' && v.detail?.includes('bad pattern'));
});

test('combinators take the class of their most expensive member', () => {
  const h = constraint('h', 'header', () => true);
  const u = constraint('u', 'uri', () => false);
  assert.equal(and(u, h).cost, 'header');
  assert.equal(or(u, h).cost, 'header');
  assert.equal(not(u).cost, 'uri');
  assert.equal(ifThen(u, h).cost, 'header');
  assert.equal(and(u, h).test(cand('http://x.test/')), false);
  assert.equal(or(u, h).test(cand('http://x.test/')), true);
  assert.equal(not(u).test(cand('http://x.test/')), true);
  assert.equal(ifThen(u, constraint('never', 'uri', () => false)).test(cand('http://x.test/')), true);
});

test('hosts matches exact names and *.domain wildcards, case-insensitively', () => {
  const c = hosts(['alpha.test', '*.demo']);
  assert.equal(c.test(cand('http://ALPHA.test/x')), true);
  assert.equal(c.test(cand('http://beta.test/x')), false);
  assert.equal(c.test(cand('http://shop.demo/')), true);
  assert.equal(c.test(cand('http://demo/')), true);
  assert.equal(c.test(cand('http://notdemo/')), false);
  assert.equal(c.test(cand('https://example.org/')), false);
});

test('same-host passes seeds and links on the referrer host only', () => {
  const c = sameHost();
  assert.equal(c.test(cand('http://a.test/')), true);
  assert.equal(c.test(cand('http://a.test/2', 1, 'http://a.test/')), true);
  assert.equal(c.test(cand('http://b.test/2', 1, 'http://a.test/')), false);
});

test('binary extensions are skipped, pages are not', () => {
  const c = notBinaryExtension();
  assert.equal(c.test(cand('http://a.test/pic.JPG')), false);
  assert.equal(c.test(cand('http://a.test/book.tar.gz')), false);
  assert.equal(c.test(cand('http://a.test/chapter-1.xhtml')), true);
  assert.equal(c.test(cand('http://a.test/dir/')), true);
});
