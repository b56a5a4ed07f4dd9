import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { constraint, type Constraint } from '../../src/walk/constraints/constraint.js';
import { headerContentType, resourceSearch } from '../../src/walk/constraints/header.js';
import { hosts } from '../../src/walk/constraints/builtin.js';
import type { FetchedPage } from '../../src/walk/engine.js';
import { runActivity, type Activity, type WalkRunOptions } from '../../src/walk/walk.js';
import { withSqliteStore } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * What requests a link costs, counted at the server by method: an activity that only tests a link
 * (a maintenance leaf) asks HEAD and no body, and GET only where the server does not do HEAD; an
 * activity with header constraints asks HEAD first, so that a no costs no body, then GET; a
 * constraint on the body is judged on the GET's. What the activity's actions are given, and what
 * each link's record says, follow from those answers.
 */

let web: FlakyWeb;
before(async () => {
  web = await startFlakyWeb();
});
after(() => web.close());

const RUN: WalkRunOptions = {
  strategy: 'bfs', concurrency: 1, seed: 1, leaseMs: 60_000, maxRetries: 0,
  fetcher: { resolve: ['*.test:127.0.0.1'], timeoutMs: 5_000 },
  politeness: { delayMs: 0, backoffBaseMs: 10, backoffMaxMs: 20 },
};

/** An activity that records each page its actions get and follows the links `follow` names. */
function recording(o: { head?: boolean; constraints?: Constraint[]; follow?: (page: FetchedPage) => string[] } = {}): { activity: Activity; acted: FetchedPage[] } {
  const acted: FetchedPage[] = [];
  const activity: Activity = {
    name: 'requests',
    constraints: [hosts(['*.test']), ...(o.constraints ?? [])],
    ...(o.head ? { method: () => 'HEAD' as const } : {}),
    act: async (page) => {
      acted.push(page);
      const links = o.follow?.(page) ?? [];
      return { outcome: { kind: 'walked', status: page.status, links: links.length }, nodes: [], links };
    },
  };
  return { activity, acted };
}

async function walk(store: Store, activity: Activity, seeds: string[]): Promise<void> {
  await store.addLinks(seeds.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
  const report = await runActivity(store, activity, RUN, {});
  assert.equal(report.stop, 'frontier-empty');
}

/** The requests for pages (robots.txt left out) the host was sent, as `METHOD path`. */
const requests = (host: string): string[] => web.hits(host).filter((h) => h.path !== '/robots.txt').map((h) => `${h.method} ${h.path}`);

async function record(store: Store, url: string): Promise<{ status: string; kind: string | undefined; detail: Record<string, unknown> | undefined }> {
  const link = (await store.linkByUrl(url))!;
  return { status: link.status, kind: link.outcome?.kind, detail: link.outcome?.detail as Record<string, unknown> | undefined };
}

describe('an activity that only tests its links asks HEAD', () => {
  it('a page that answers HEAD is acted on without its body, and no GET is sent', () =>
    withSqliteStore(async (store) => {
      web.page('leaf.test', '/a.html', prose('leaf'));
      const { activity, acted } = recording({ head: true });
      await walk(store, activity, [web.url('leaf.test', '/a.html')]);
      assert.deepEqual(requests('leaf.test'), ['HEAD /a.html']);
      assert.deepEqual(acted.map((p) => [p.method, p.status, p.text]), [['HEAD', 200, '']]);
      assert.deepEqual((await record(store, web.url('leaf.test', '/a.html'))).kind, 'walked');
    }));

  for (const status of [405, 501]) {
    it(`a server that refuses HEAD with ${status} is asked GET, and the actions get the page`, () =>
      withSqliteStore(async (store) => {
        const host = `nohead${status}.test`;
        web.page(host, '/a.html', { html: prose(host), refuseHead: status });
        const { activity, acted } = recording({ head: true });
        await walk(store, activity, [web.url(host, '/a.html')]);
        assert.deepEqual(requests(host), ['HEAD /a.html', 'GET /a.html']);
        assert.deepEqual(acted.map((p) => [p.method, p.status]), [['GET', 200]]);
        assert.match(acted[0]!.text, /<p>/);
      }));
  }

  it('a HEAD that fails otherwise (404) is the link\'s answer: no GET, no action, the link failed', () =>
    withSqliteStore(async (store) => {
      web.page('gonehead.test', '/a.html', { html: prose('gone'), failFirst: 9, failWith: '404' });
      const { activity, acted } = recording({ head: true });
      await walk(store, activity, [web.url('gonehead.test', '/a.html')]);
      assert.deepEqual(requests('gonehead.test'), ['HEAD /a.html']);
      assert.deepEqual(acted, []);
      const r = await record(store, web.url('gonehead.test', '/a.html'));
      assert.deepEqual([r.status, r.kind, r.detail?.status], ['failed', 'http-error', 404]);
    }));

  it('a header constraint that says no on the HEAD leaves the page unread', () =>
    withSqliteStore(async (store) => {
      web.page('plain.test', '/a.html', { html: prose('plain'), headers: { 'content-type': 'text/plain' } });
      const { activity, acted } = recording({ head: true, constraints: [headerContentType(['text/html'])] });
      await walk(store, activity, [web.url('plain.test', '/a.html')]);
      assert.deepEqual(requests('plain.test'), ['HEAD /a.html']);
      assert.deepEqual(acted, []);
      const r = await record(store, web.url('plain.test', '/a.html'));
      assert.deepEqual([r.status, r.kind, r.detail?.constraint, r.detail?.cost], ['excluded', 'rejected', 'header-content-type text/html', 'header']);
    }));

  it('a HEAD sent to another host gives that address as a link of its own, tested in turn', () =>
    withSqliteStore(async (store) => {
      web.page('moved-head.test', '/a.html', { html: '', redirect: web.url('new-home.test', '/b.html') });
      web.page('new-home.test', '/b.html', prose('new home'));
      const { activity, acted } = recording({ head: true });
      await walk(store, activity, [web.url('moved-head.test', '/a.html')]);
      assert.deepEqual(requests('moved-head.test'), ['HEAD /a.html']);
      assert.deepEqual(requests('new-home.test'), ['HEAD /b.html']);
      assert.deepEqual(acted.map((p) => p.finalUrl), [web.url('new-home.test', '/b.html')]);
      assert.deepEqual((await record(store, web.url('moved-head.test', '/a.html'))).kind, 'redirected');
      assert.equal((await store.linkByUrl(web.url('new-home.test', '/b.html')))!.depth, 1);
    }));
});

describe('an activity with header constraints asks HEAD before GET', () => {
  it('a page they allow costs a HEAD and a GET, and the actions get the GET\'s page', () =>
    withSqliteStore(async (store) => {
      web.page('allowed.test', '/a.html', prose('allowed'));
      const { activity, acted } = recording({ constraints: [headerContentType(['text/html'])] });
      await walk(store, activity, [web.url('allowed.test', '/a.html')]);
      assert.deepEqual(requests('allowed.test'), ['HEAD /a.html', 'GET /a.html']);
      assert.deepEqual(acted.map((p) => p.method), ['GET']);
    }));

  it('a page they refuse costs the HEAD alone', () =>
    withSqliteStore(async (store) => {
      web.page('refused-type.test', '/a.pdf', { html: 'not html', headers: { 'content-type': 'application/pdf' } });
      const { activity, acted } = recording({ constraints: [headerContentType(['text/html'])] });
      await walk(store, activity, [web.url('refused-type.test', '/a.pdf')]);
      assert.deepEqual(requests('refused-type.test'), ['HEAD /a.pdf']);
      assert.deepEqual(acted, []);
      const r = await record(store, web.url('refused-type.test', '/a.pdf'));
      assert.deepEqual([r.status, r.kind, r.detail?.cost], ['excluded', 'rejected', 'header']);
    }));

  it('where the server refuses HEAD, the constraints judge the GET\'s headers', () =>
    withSqliteStore(async (store) => {
      // Plain text, which the fetcher reads and the constraint refuses.
      web.page('nohead-text.test', '/a.txt', { html: 'plain words', refuseHead: 405, headers: { 'content-type': 'text/plain' } });
      web.page('nohead-html.test', '/a.html', { html: prose('nohead html'), refuseHead: 405 });
      const { activity, acted } = recording({ constraints: [headerContentType(['text/html'])] });
      await walk(store, activity, [web.url('nohead-text.test', '/a.txt'), web.url('nohead-html.test', '/a.html')]);
      assert.deepEqual(requests('nohead-text.test'), ['HEAD /a.txt', 'GET /a.txt']);
      const r = await record(store, web.url('nohead-text.test', '/a.txt'));
      assert.deepEqual([r.status, r.kind, r.detail?.constraint], ['excluded', 'rejected', 'header-content-type text/html']);
      assert.deepEqual(acted.map((p) => p.finalUrl), [web.url('nohead-html.test', '/a.html')]);
    }));
});

describe('a constraint on the body judges the GET\'s', () => {
  it('a page without the text asked for is rejected unread by the actions; one with it is acted on', () =>
    withSqliteStore(async (store) => {
      web.page('search.test', '/with.html', `<html><body><p>The lighthouse keeper climbed the stairs.</p></body></html>`);
      web.page('search.test', '/without.html', `<html><body><p>The baker opened the shop.</p></body></html>`);
      const { activity, acted } = recording({ constraints: [resourceSearch('lighthouse')] });
      await walk(store, activity, [web.url('search.test', '/with.html'), web.url('search.test', '/without.html')]);
      assert.deepEqual(requests('search.test'), ['GET /with.html', 'GET /without.html'], 'no HEAD: no constraint reads headers');
      assert.deepEqual(acted.map((p) => p.finalUrl), [web.url('search.test', '/with.html')]);
      const r = await record(store, web.url('search.test', '/without.html'));
      assert.deepEqual([r.status, r.kind, r.detail?.cost], ['excluded', 'rejected', 'resource']);
    }));

  it('a constraint that throws rejects the page, and its record says what it threw', () =>
    withSqliteStore(async (store) => {
      web.page('throws.test', '/a.html', prose('throws'));
      const broken = constraint('resource-broken', 'resource', () => {
        throw new Error('no such predicate');
      });
      const { activity, acted } = recording({ constraints: [broken] });
      await walk(store, activity, [web.url('throws.test', '/a.html')]);
      assert.deepEqual(acted, []);
      const r = await record(store, web.url('throws.test', '/a.html'));
      assert.deepEqual([r.kind, r.detail?.constraint, r.detail?.detail], ['rejected', 'resource-broken', 'threw: no such predicate']);
    }));
});

describe('a GET sent to another host', () => {
  it('is done as redirected, with no text of its own, and the address it gave is walked as a link', () =>
    withSqliteStore(async (store) => {
      web.page('moved.test', '/a.html', { html: '', redirect: web.url('moved-to.test', '/b.html') });
      web.page('moved-to.test', '/b.html', prose('moved to'));
      const { activity, acted } = recording();
      await walk(store, activity, [web.url('moved.test', '/a.html')]);
      assert.deepEqual([requests('moved.test'), requests('moved-to.test')], [['GET /a.html'], ['GET /b.html']]);
      assert.deepEqual(acted.map((p) => p.finalUrl), [web.url('moved-to.test', '/b.html')]);
      const r = await record(store, web.url('moved.test', '/a.html'));
      assert.deepEqual([r.status, r.kind], ['done', 'redirected']);
      assert.deepEqual(await store.nodes({ sourceUrl: web.url('moved.test', '/a.html') }), []);
    }));
});
