import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConstraintSet, type Candidate, type Constraint } from '../../src/walk/constraints/constraint.js';
import * as U from '../../src/walk/constraints/uri.js';
import * as H from '../../src/walk/constraints/header.js';
import { uriHost, uriReferrerHost } from '../../src/walk/constraints/dns.js';
import { httpDateToUniversal, msToUniversal, toSeconds, toUniversal, universalToMs } from '../../src/walk/constraints/time.js';

const at = (url: string, more: Partial<Candidate> = {}): Candidate => ({ url: new URL(url), depth: 1, ...more });
const pass = (k: Constraint, c: Candidate) => k.test(c);
/** The verdict's detail when a constraint runs without the fact it needs. */
const missing = (k: Constraint, c: Candidate) => {
  const v = new ConstraintSet([k]).check(c);
  assert.equal(v.pass, false);
  return v.pass ? '' : v.detail ?? '';
};

test('universal time: the paper\'s 3029461200 is 1996-01-01 at midnight in Boston, and ISO dates convert', () => {
  // The paper wrote local time at MIT: midnight EST is 05:00 UTC.
  assert.equal(new Date(universalToMs(3029461200)).toISOString(), '1996-01-01T05:00:00.000Z');
  assert.equal(msToUniversal(Date.UTC(1996, 0, 1, 5)), 3029461200);
  assert.equal(toUniversal('1996-01-01'), 3029443200);
  assert.equal(toUniversal('1996-01-01T00:00:00-05:00'), 3029461200);
  assert.equal(toUniversal('1996-01-01T05:00'), 3029461200);
  assert.equal(toUniversal(3029461200), 3029461200);
  assert.equal(toUniversal('next tuesday'), undefined);
  assert.equal(httpDateToUniversal('Mon, 01 Jan 1996 05:00:00 GMT'), 3029461200);
  assert.equal(toSeconds('P1DT2H'), 93600);
  assert.equal(toSeconds('P'), undefined);
});

test('depth is a context constraint: at most DEPTH links from the root', () => {
  assert.equal(U.depth(2).cost, 'context');
  assert.equal(pass(U.depth(2), at('http://a.test/', { depth: 2 })), true);
  assert.equal(pass(U.depth(2), at('http://a.test/', { depth: 3 })), false);
});

test('no-cycles rejects a URL already on the path from the root, and needs the path', () => {
  const k = U.noCycles();
  assert.equal(pass(k, at('http://a.test/x#top', { path: ['http://a.test/', 'http://a.test/x'] })), false);
  assert.equal(pass(k, at('http://a.test/y', { path: ['http://a.test/', 'http://a.test/x'] })), true);
  assert.match(missing(k, at('http://a.test/y')), /missing candidate\.path/);
});

test('uri-class tells objects, paths and searches apart', () => {
  assert.deepEqual(U.uriClassesOf(new URL('http://a.test/d/f.html')), ['http-url', 'http-object']);
  assert.equal(pass(U.uriClass(['http-path']), at('http://a.test/d/')), true);
  assert.equal(pass(U.uriClass(['http-path']), at('http://a.test/d/f.html')), false);
  assert.equal(pass(U.uriClass(['http-search']), at('http://a.test/s?q=1')), true);
  assert.equal(pass(U.uriClass(['ftp-url']), at('ftp://a.test/pub/')), true);
});

test('directory-path constraints: exact, subsumed (both case-insensitive) and the parent\'s (as written)', () => {
  const c = at('http://a.test/CL-HTTP/w4/index.html', { referrer: 'http://a.test/cl-http/docs/a.html' });
  assert.equal(pass(U.uriDirectoryPath(['cl-http', 'w4']), c), true);
  assert.equal(pass(U.uriDirectoryPath(['cl-http']), c), false);
  assert.equal(pass(U.uriSubsumedByDirectoryPath(['cl-http']), c), true);
  assert.equal(pass(U.uriSubsumedByDirectoryPath(['other']), c), false);
  assert.equal(pass(U.uriParentSubsumedByDirectoryPath(['cl-http']), c), true);
  assert.equal(pass(U.uriParentSubsumedByDirectoryPath(['CL-HTTP']), c), false);
  assert.match(missing(U.uriParentSubsumedByDirectoryPath(['x']), at('http://a.test/')), /missing candidate\.referrer/);
});

test('uri-name and uri-extension split the object\'s name and fail for paths', () => {
  assert.equal(pass(U.uriExtension('HTML'), at('http://a.test/d/Page.html')), true);
  assert.equal(pass(U.uriExtension('.html'), at('http://a.test/d/page.htm')), false);
  assert.equal(pass(U.uriName('page'), at('http://a.test/d/PAGE.html')), true);
  assert.equal(pass(U.uriName('d'), at('http://a.test/d/')), false);
  assert.equal(pass(U.uriExtension('gz'), at('http://a.test/x.tar.gz')), true);
});

test('uri-port counts the scheme\'s default port; uri-scheme and uri-search ignore case', () => {
  assert.equal(pass(U.uriPort([80]), at('http://a.test/')), true);
  assert.equal(pass(U.uriPort([80, 8080]), at('http://a.test:8080/')), true);
  assert.equal(pass(U.uriPort([80]), at('https://a.test/')), false);
  assert.equal(pass(U.uriScheme(['HTTPS']), at('https://a.test/')), true);
  assert.equal(pass(U.uriScheme(['ftp']), at('https://a.test/')), false);
  assert.equal(pass(U.uriSearch('Standards'), at('http://a.test/the-standards/')), true);
  assert.equal(pass(U.uriSearch('image-maps'), at('http://a.test/the-standards/')), false);
});

test('uri-satisfies applies a predicate over the URL\'s fields', () => {
  const k = U.uriSatisfies('host ends-with ".mit.edu" and not query present');
  assert.equal(pass(k, at('http://www.ai.mit.edu/projects/')), true);
  assert.equal(pass(k, at('http://www.ai.mit.edu/s?q=1')), false);
  assert.equal(pass(k, at('http://example.org/')), false);
  assert.equal(pass(U.uriSatisfies('port >= 8000'), at('http://a.test:8080/')), true);
});

test('uri-host compares literally first, then by canonical name, and needs DNS only then', () => {
  const k = uriHost(['wilson.ai.mit.edu', '192.0.2.7']);
  assert.equal(k.cost, 'dns');
  assert.equal(pass(k, at('http://WILSON.ai.mit.edu./')), true);
  assert.equal(pass(k, at('http://www.test/', { dns: { canonicalName: 'wilson.ai.mit.edu.', addresses: [] } })), true);
  assert.equal(pass(k, at('http://www.test/', { dns: { canonicalName: 'www.test', addresses: ['192.0.2.7'] } })), true);
  assert.equal(pass(k, at('http://www.test/', { dns: { canonicalName: 'www.test', addresses: ['192.0.2.8'] } })), false);
  assert.match(missing(k, at('http://alias.test/')), /missing candidate\.dns/);
});

test('uri-referrer-host looks at the parent\'s host', () => {
  const k = uriReferrerHost(['a.test']);
  assert.equal(pass(k, at('http://b.test/', { referrer: 'http://a.test/x' })), true);
  assert.equal(pass(k, at('http://a.test/', { referrer: 'http://c.test/x', referrerDns: { canonicalName: 'c.test', addresses: [] } })), false);
  assert.match(missing(k, at('http://a.test/', { referrer: 'http://c.test/' })), /missing candidate\.referrerDns/);
});

test('header-content-length compares, and fails on a missing length; -upto takes its default', () => {
  const h = (len?: string) => at('http://a.test/', { headers: len === undefined ? {} : { 'Content-Length': len } });
  assert.equal(pass(H.headerContentLength('<', 1000), h('999')), true);
  assert.equal(pass(H.headerContentLength('<', 1000), h('1000')), false);
  assert.equal(pass(H.headerContentLength('<', 1000), h()), false);
  assert.equal(pass(H.headerContentLengthUpto(1000), h('1000')), true);
  assert.equal(pass(H.headerContentLengthUpto(1000), h('1001')), false);
  assert.equal(pass(H.headerContentLengthUpto(1000), h()), true);
  assert.equal(pass(H.headerContentLengthUpto(1000, false), h()), false);
  assert.match(missing(H.headerContentLengthUpto(1), at('http://a.test/')), /missing candidate\.headers/);
});

test('header-content-type matches type and subtype, with wildcards; no header fails', () => {
  const h = (t?: string) => at('http://a.test/', { headers: t ? { 'content-type': t } : {} });
  assert.equal(pass(H.headerContentType(['text/html']), h('text/html; charset=utf-8')), true);
  assert.equal(pass(H.headerContentType(['text/html']), h('text/plain')), false);
  assert.equal(pass(H.headerContentType(['text/*', 'image/png']), h('image/png')), true);
  assert.equal(pass(H.headerContentType(['text/*']), h()), false);
});

test('header-expires and header-last-modified compare universal times', () => {
  const h = at('http://a.test/', { headers: { 'Last-Modified': 'Tue, 02 Jan 1996 00:00:00 GMT', Expires: 'Mon, 01 Jan 1996 05:00:00 GMT' } });
  assert.equal(pass(H.headerLastModified('>', 3029461200), h), true);
  assert.equal(pass(H.headerLastModified('<', 3029461200), h), false);
  assert.equal(pass(H.headerExpires('=', 3029461200), h), true);
  assert.equal(pass(H.headerExpires('>', 3029461200), h), false);
  assert.equal(pass(H.headerExpires('>', 0), at('http://a.test/', { headers: {} })), false);
});

test('header-resource-age measures seconds since Last-Modified by the walk\'s clock', () => {
  const h = at('http://a.test/', { headers: { 'last-modified': 'Mon, 01 Jan 1996 00:00:00 GMT' }, now: Date.UTC(1996, 0, 2) });
  assert.equal(pass(H.headerResourceAge(0, 86400), h), true);
  assert.equal(pass(H.headerResourceAge(0, 86399), h), false);
  assert.equal(pass(H.headerResourceAge(0, 1), at('http://a.test/', { headers: {}, now: 0 })), false);
  assert.match(missing(H.headerResourceAge(0, 1), at('http://a.test/', { headers: { 'last-modified': 'Mon, 01 Jan 1996 00:00:00 GMT' } })), /missing candidate\.now/);
});

test('header-robots-allowed follows the engine\'s robots answer, and fails closed without one', () => {
  assert.equal(pass(H.headerRobotsAllowed(), at('http://a.test/', { robotsAllowed: true })), true);
  assert.equal(pass(H.headerRobotsAllowed(), at('http://a.test/', { robotsAllowed: false })), false);
  assert.match(missing(H.headerRobotsAllowed(), at('http://a.test/')), /missing candidate\.robotsAllowed/);
});

test('header-predicate sees the parsed value and presence; header-server fails without the header', () => {
  const h = at('http://a.test/', { headers: { Server: 'Apache/2.4', 'Last-Modified': 'Tue, 02 Jan 1996 00:00:00 GMT' } });
  assert.equal(pass(H.headerPredicate(':server', 'matches /apache/i'), h), true);
  assert.equal(pass(H.headerPredicate('last-modified', '> "1996-01-01"'), h), true);
  assert.equal(pass(H.headerPredicate('last-modified', '< 3029461200'), h), false);
  assert.equal(pass(H.headerPredicate('last-modified', '>= 3029461200'), h), true);
  assert.equal(pass(H.headerPredicate('x-missing', 'absent'), h), true);
  assert.equal(pass(H.headerPredicate('x-missing', 'present'), h), false);
  assert.equal(pass(H.headerServer('contains "nginx"'), h), false);
  assert.equal(pass(H.headerServer('starts-with "apache"'), h), true);
  assert.equal(pass(H.headerServer('present'), at('http://a.test/', { headers: {} })), false);
});

test('resource-search finds a substring in a text body, case-insensitive, and never in a binary one', () => {
  const k = H.resourceSearch('Lisp');
  assert.equal(k.cost, 'resource');
  assert.equal(pass(k, at('http://a.test/', { headers: { 'content-type': 'text/html' }, body: 'Common LISP server' })), true);
  assert.equal(pass(k, at('http://a.test/', { headers: { 'content-type': 'text/html' }, body: 'nothing here' })), false);
  assert.equal(pass(k, at('http://a.test/', { headers: { 'content-type': 'image/png' }, body: 'lisp' })), false);
  assert.match(missing(k, at('http://a.test/')), /missing candidate\.body/);
});

test('resource-satisfies applies a predicate to a text body', () => {
  const k = H.resourceSatisfies('matches /<title>[^<]*lisp/i and not contains "404"');
  const page = (body: string, type = 'text/html') => at('http://a.test/', { headers: { 'content-type': type }, body });
  assert.equal(k.cost, 'resource');
  assert.equal(pass(k, page('<title>Common Lisp</title>')), true);
  assert.equal(pass(k, page('<title>Common Lisp</title> 404')), false);
  assert.equal(pass(k, page('<title>Common Lisp</title>', 'application/octet-stream')), false);
  assert.match(missing(k, at('http://a.test/')), /missing candidate\.body/);
});
