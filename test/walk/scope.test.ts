import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { hosts } from '../../src/walk/constraints/builtin.js';
import { ConstraintSet } from '../../src/walk/constraints/constraint.js';
import { Scope } from '../../src/walk/scope.js';
import { uriHost, uriReferrerHost } from '../../src/walk/constraints/dns.js';
import { noCycles } from '../../src/walk/constraints/uri.js';
import type { Link, Store } from '../../src/store/store.js';
import type { WalkOutcome } from '../../src/walk/outcome.js';
import { sqliteDb } from '../support/db.js';

const url = (n: number) => `http://a.test/${n}`;

test('the URLs a run knows are stored are bounded: the oldest is forgotten, found again and sent again', async () => {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    await store.addLinks([{ url: 'http://a.test/', host: 'a.test', depth: 0 }]);
    const from = (await store.linkByUrl('http://a.test/'))!;
    const scope = new Scope(store, new ConstraintSet([]), async () => ({ facts: { canonicalName: 'a.test', addresses: ['127.0.0.1'] } }), undefined, 2);
    const found = async (...ns: number[]) => (await scope.discover(ns.map(url), from, () => {})).links.map((l) => l.url);

    scope.stored([1, 2].map((n) => ({ url: url(n), host: 'a.test', depth: 1 })));
    assert.deepEqual(await found(1, 2, 3), [url(3)], 'the stored ones are not sent');

    scope.stored([{ url: url(3), host: 'a.test', depth: 1 }]);
    assert.deepEqual(await found(1, 2, 3), [url(1)], 'the oldest of three, past the bound of two, is sent again');
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test("a page's links past the cap are neither looked at nor stored, only counted; links met again and out of scope take no place", async () => {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    await store.addLinks([{ url: 'http://a.test/', host: 'a.test', depth: 0 }]);
    const from = (await store.linkByUrl('http://a.test/'))!;
    const scope = new Scope(store, new ConstraintSet([hosts(['a.test'])]), async () => ({ facts: { canonicalName: 'a.test', addresses: ['127.0.0.1'] } }));
    const dropped: string[] = [];
    const page = [url(1), url(1), 'http://elsewhere.test/', url(2), `${url(2)}#top`, url(3), url(4), url(5)];
    const r = await scope.discover(page, from, (rule) => dropped.push(rule), 3);
    assert.deepEqual(r.links.map((l) => l.url), [url(1), url(2), url(3)]);
    assert.equal(r.cut, 2, 'the fourth and fifth');
    assert.equal(dropped.length, 1, 'the link out of scope is dropped by its rule, not cut');
    // A link the run already stored is one of the page's links: it fills a place and is not sent again.
    scope.stored([{ url: url(1), host: 'a.test', depth: 1 }]);
    const again = await scope.discover(page, from, () => {}, 3);
    assert.deepEqual([again.links.map((l) => l.url), again.cut], [[url(2), url(3)], 2]);
    assert.deepEqual((await scope.discover(page, from, () => {})).cut, 0, 'the default cap is far above five links');
  } finally {
    await store.close();
    await db.cleanup();
  }
});

/** A scope over a fresh store holding a.test's root, a page found on it and one found on that. */
async function withChain(fn: (store: Store, root: Link, page: Link, deep: Link) => Promise<void>): Promise<void> {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    await store.addLinks([{ url: 'http://a.test/', host: 'a.test', depth: 0 }]);
    const root = (await store.linkByUrl('http://a.test/'))!;
    await store.addLinks([{ url: url(1), host: 'a.test', depth: 1, referrerId: root.id }]);
    const page = (await store.linkByUrl(url(1)))!;
    await store.addLinks([{ url: url(2), host: 'a.test', depth: 2, referrerId: page.id }]);
    await fn(store, root, page, (await store.linkByUrl(url(2)))!);
  } finally {
    await store.close();
    await db.cleanup();
  }
}

const noDns = async () => {
  throw new Error('no DNS lookup was expected');
};

test("a picked link: the URI constraints' no names the constraint, and no DNS lookup is made unless a DNS-class constraint asks", () =>
  withChain(async (store, _root, page) => {
    const scope = new Scope(store, new ConstraintSet([hosts(['b.test'])]), noDns);
    const c = await scope.candidate(page);
    assert.deepEqual([c.url.href, c.depth, c.referrer, c.path], [url(1), 1, 'http://a.test/', undefined]);
    assert.deepEqual(await scope.filter(c), { kind: 'refused', reason: 'out-of-scope', constraint: 'hosts b.test' });
    assert.equal(await new Scope(store, new ConstraintSet([hosts(['a.test'])]), noDns).filter(c), undefined);
  }));

test('a DNS-class constraint gets the host\'s and the referrer\'s answers; a failed lookup is the link\'s outcome; a URI no spares the lookup', () =>
  withChain(async (store, root, page) => {
    const asked: string[] = [];
    const dns = async (host: string) => {
      asked.push(host);
      if (host === 'gone.test') return { outcome: { kind: 'failed', failure: 'dns', detail: 'NXDOMAIN' } as WalkOutcome };
      return { facts: { canonicalName: host === 'a.test' ? 'www.b.test' : host, addresses: ['127.0.0.1'] } };
    };
    const byAlias = new Scope(store, new ConstraintSet([uriHost(['www.b.test'])]), dns);
    assert.equal(await byAlias.filter(await byAlias.candidate(page)), undefined, 'a.test is an alias of www.b.test');
    assert.deepEqual(asked, ['a.test', 'a.test'], 'the host, then the referrer');
    const referrer = new Scope(store, new ConstraintSet([uriReferrerHost(['www.b.test'])]), dns);
    assert.equal(await referrer.filter(await referrer.candidate(page)), undefined, 'the referrer a.test is www.b.test too');
    assert.deepEqual(await referrer.filter({ url: new URL('http://c.test/'), depth: 1, referrer: 'http://c.test/x' }),
      { kind: 'refused', reason: 'out-of-scope', constraint: 'uri-referrer-host www.b.test' });
    assert.deepEqual(await byAlias.filter({ url: new URL('http://gone.test/'), depth: 1 }), { kind: 'failed', failure: 'dns', detail: 'NXDOMAIN' });
    asked.length = 0;
    assert.equal(await byAlias.filter({ url: new URL('http://a.test/'), depth: 0 }), undefined, 'a seed');
    assert.deepEqual(asked, ['a.test'], 'a seed has no referrer to look up');
    asked.length = 0;
    const both = new Scope(store, new ConstraintSet([hosts(['a.test']), uriHost(['www.b.test'])]), dns);
    assert.deepEqual(await both.filter({ url: new URL('http://c.test/'), depth: 1, referrer: root.url }),
      { kind: 'refused', reason: 'out-of-scope', constraint: 'hosts a.test' });
    assert.deepEqual(asked, [], 'refused by its URI before any lookup');
  }));

test('no-cycles: the path from the root is read up the referrers, and a link back to an ancestor is dropped by it', () =>
  withChain(async (store, root, page, deep) => {
    const scope = new Scope(store, new ConstraintSet([hosts(['a.test']), noCycles()]), noDns);
    assert.deepEqual((await scope.candidate(deep)).path, [root.url, page.url]);
    // Depth can count afresh from a page, so a chain may be longer than the depth: it reads depth + 1 hops, and a cycle in the chain ends.
    await store.addLinks([{ url: url(3), host: 'a.test', depth: 1, referrerId: deep.id }]);
    assert.deepEqual((await scope.candidate((await store.linkByUrl(url(3)))!)).path, [page.url, deep.url]);
    assert.deepEqual((await scope.candidate(root)).path, [], 'a seed has no path');
    const dropped: string[] = [];
    const r = await scope.discover(['http://a.test/', url(1), url(2), url(3)], deep, (rule) => dropped.push(rule));
    assert.deepEqual(r.links.map((l) => l.url), [url(3)]);
    assert.deepEqual(dropped, ['no-cycles', 'no-cycles', 'no-cycles'], 'the root, the page and the link itself are on the path');
  }));

test("a page's links: unparsable ones dropped by their reason, the rest one link deeper, with the page's query, itself as referrer, and their priority", () =>
  withChain(async (store, _root, page) => {
    const scope = new Scope(store, new ConstraintSet([]), noDns, 40);
    const dropped: string[] = [];
    const long = `http://a.test/${'x'.repeat(40)}`;
    const r = await scope.discover(['mailto:someone@a.test', 'http://', long, { url: url(7), priority: 0.25 }, `${url(8)}`], page, (rule) => dropped.push(rule));
    assert.deepEqual(dropped, ['bad-scheme', 'bad-url', 'too-long']);
    assert.deepEqual(r.links, [
      { url: url(7), host: 'a.test', depth: 2, queryId: page.queryId, referrerId: page.id, priority: 0.25 },
      { url: url(8), host: 'a.test', depth: 2, queryId: page.queryId, referrerId: page.id },
    ]);
    const afresh = await scope.discover([url(9)], page, () => {}, undefined, 0);
    assert.equal(afresh.links[0]!.depth, 0, 'a walk that counts afresh from this page');
  }));
