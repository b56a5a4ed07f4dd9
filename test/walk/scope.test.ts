import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { hosts } from '../../src/walk/constraints/builtin.js';
import { ConstraintSet } from '../../src/walk/constraints/constraint.js';
import { Scope } from '../../src/walk/scope.js';
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
