import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownerOf } from '../../src/maintain/action.js';
import { checkOf, kindOf } from '../../src/maintain/report.js';
import { mayWalk, owned } from '../../src/maintain/task.js';

/** MOMspider's traversal types and what a test result means. */

describe('traversal types', () => {
  it('Tree: the Top\'s directory and below; Site: the Top\'s host and port; Owner: the Top\'s host, then the Owner decides', () => {
    const tree = { type: 'tree' as const, name: 't', top: 'http://h.test/docs/guide/index.html' };
    assert.equal(mayWalk(tree, 'http://h.test/docs/guide/a/b.html'), true);
    assert.equal(mayWalk(tree, 'http://h.test/docs/other.html'), false);
    assert.equal(mayWalk(tree, 'http://h.test:8080/docs/guide/a.html'), false);
    const site = { type: 'site' as const, name: 's', top: 'http://h.test/docs/index.html' };
    assert.equal(mayWalk(site, 'http://h.test/elsewhere.html'), true);
    assert.equal(mayWalk(site, 'http://h.test:80/x'), true, 'the default port is the same place');
    assert.equal(mayWalk(site, 'https://h.test/x'), false, 'https is port 443');
    const owner = { type: 'owner' as const, name: 'Ann', top: 'http://h.test/~ann/' };
    assert.equal(owned(owner, 'ann '), true);
    assert.equal(owned(owner, 'Bob'), false);
    assert.equal(owned(owner, undefined), false);
    assert.equal(owned(tree, undefined), true, 'only Owner tasks ask for an Owner');
  });

  it('reads the Owner from the header, a meta name/content, or the paper\'s META header name/value', () => {
    assert.equal(ownerOf({ owner: 'Hdr' }, '<meta name="Owner" content="Meta">'), 'Hdr');
    assert.equal(ownerOf({}, '<head><meta name="Owner" content="Meta"></head>'), 'Meta');
    assert.equal(ownerOf({}, '<META header name="Owner" value="AnyOwnerAlias">'), 'AnyOwnerAlias');
    assert.equal(ownerOf({}, '<meta name="author" content="X">'), undefined);
  });
});

describe('test results', () => {
  it('a same-host redirect is moved, errors and failed requests are broken, robots.txt skips, an unreachable robots.txt breaks', () => {
    const doc = { url: 'http://h.test/a', finalUrl: 'http://h.test/b', status: 200, method: 'GET' as const, contentType: 'text/html', title: '', member: false, refs: [] };
    assert.deepEqual([checkOf(doc.url, doc, undefined).state, checkOf(doc.url, doc, undefined).movedTo], ['moved', 'http://h.test/b']);
    assert.equal(checkOf('u', undefined, { kind: 'http-error', detail: { status: 404 } }).detail, 'HTTP 404');
    assert.equal(checkOf('u', undefined, { kind: 'failed', detail: { failure: 'timeout' } }).state, 'broken');
    assert.equal(checkOf('u', undefined, { kind: 'redirected', detail: { status: 301, to: 'http://x.test/' } }).movedTo, 'http://x.test/');
    assert.equal(checkOf('u', undefined, { kind: 'robots', detail: { reason: 'disallowed' } }).state, 'skipped');
    assert.equal(checkOf('u', undefined, { kind: 'robots', detail: { reason: 'unreachable', retryAt: 1 } }).state, 'broken');
    assert.equal(checkOf('u', undefined, { kind: 'robots', detail: { reason: 'unreachable', retryAt: 1, cause: 'HTTP 503' } }).state, 'broken');
    // A server that rate-limits has said nothing about the document.
    assert.equal(checkOf('u', undefined, { kind: 'robots', detail: { reason: 'unreachable', retryAt: 1, cause: 'HTTP 503', status: 503 } }).state, 'broken');
    const limited = checkOf('u', undefined, { kind: 'robots', detail: { reason: 'unreachable', retryAt: 1, cause: 'HTTP 429', status: 429 } });
    assert.deepEqual([limited.state, limited.detail], ['unchecked', 'robots.txt answered HTTP 429 (too many requests): the server asked for time; rerun later, or with a larger --delay']);
    const page = checkOf('u', undefined, { kind: 'http-error', detail: { status: 429 } });
    assert.deepEqual([page.state, page.status, page.detail], ['unchecked', 429, 'HTTP 429 (too many requests): the server asked for time; rerun later, or with a larger --delay']);
    assert.equal(checkOf('u', undefined, { kind: 'http-error', detail: { status: 428 } }).state, 'broken');
    assert.equal(checkOf('u', undefined, undefined).state, 'unchecked');
  });

  it('names reference kinds as the index does', () => {
    assert.deepEqual(['a', 'img', 'iframe', 'link', 'script', 'embed'].map((t) => kindOf(t, 'http://h.test/x')), ['get', 'img', 'frame', 'link', 'script', 'other']);
    assert.equal(kindOf('a', 'http://h.test/s?q=1'), 'query');
  });
});
