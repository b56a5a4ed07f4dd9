import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
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
    const found = async (...ns: number[]) => (await scope.discover(ns.map(url), from, () => {})).map((l) => l.url);

    scope.stored([1, 2].map((n) => ({ url: url(n), host: 'a.test', depth: 1 })));
    assert.deepEqual(await found(1, 2, 3), [url(3)], 'the stored ones are not sent');

    scope.stored([{ url: url(3), host: 'a.test', depth: 1 }]);
    assert.deepEqual(await found(1, 2, 3), [url(1)], 'the oldest of three, past the bound of two, is sent again');
  } finally {
    await store.close();
    await db.cleanup();
  }
});
