import { test } from 'node:test';
import assert from 'node:assert/strict';
import { and, constraint, ConstraintSet, ifThen, not, or, type Candidate } from '../../src/walk/constraints/constraint.js';
import { hosts, httpOnly, maxDepth, maxUrlLength, notBinaryExtension, sameHost } from '../../src/walk/constraints/builtin.js';

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

test('the harvest\'s own constraints: their names (what a refused link\'s record and anwc why say) and their bounds', () => {
  assert.deepEqual([maxDepth(3), httpOnly(), maxUrlLength(40), hosts(['a.test', '*.demo']), sameHost(), notBinaryExtension()].map((c) => [c.name, c.cost]), [
    ['max-depth 3', 'context'], ['http-scheme', 'uri'], ['max-url-length 40', 'uri'], ['hosts a.test,*.demo', 'uri'], ['same-host', 'uri'], ['not-binary-extension', 'uri'],
  ]);
  assert.deepEqual([3, 4].map((d) => maxDepth(3).test(cand('http://a.test/', d))), [true, false], 'depth 3 is within --max-depth 3');
  const url = 'http://a.test/' + 'x'.repeat(26);
  assert.equal(url.length, 40);
  assert.deepEqual([maxUrlLength(40).test(cand(url)), maxUrlLength(39).test(cand(url))], [true, false], 'a URL of exactly the limit is kept');
  assert.deepEqual(['http://a.test/', 'https://a.test/', 'ftp://a.test/', 'file:///etc/passwd', 'mailto:a@a.test', 'data:text/html,x'].map((u) => httpOnly().test(cand(u))),
    [true, true, false, false, false, false]);
});

test('hosts reads its patterns as a user types them: spaces and case do not matter, an empty one matches nothing', () => {
  const c = hosts(['  Alpha.TEST ', '', ' *.Demo']);
  assert.deepEqual(['http://alpha.test/', 'http://shop.demo/', 'http://demo/', 'http://other.test/'].map((u) => c.test(cand(u))), [true, true, true, false]);
  assert.equal(hosts(['', '  ']).test(cand('http://a.test/')), false);
  assert.deepEqual(['http://www.alpha.test/', 'http://xalpha.test/'].map((u) => c.test(cand(u))), [false, false], 'a name without *. is that host alone');
});

test('binary extensions, each spelling of those the list gives in one pattern', () => {
  const c = notBinaryExtension();
  for (const ext of ['jpg', 'jpeg', 'tif', 'tiff', 'mp3', 'mp4', 'm4a', 'm4v', 'woff', 'woff2', 'PDF', 'Epub']) {
    assert.equal(c.test(cand(`http://a.test/file.${ext}`)), false, ext);
  }
  for (const page of ['file.html', 'file.tiffany', 'file.mp5', 'pdf', 'file.json/']) assert.equal(c.test(cand(`http://a.test/${page}`)), true, page);
});
