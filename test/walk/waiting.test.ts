import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { IDLE_MS, WaitingWatch } from '../../src/walk/waiting.js';

/** A link of `host` that failed with a 503 and waits for its retry until `notBefore`. */
async function retryLater(store: Store, host: string, notBefore: number): Promise<void> {
  await store.addLinks([{ url: `http://${host}/1`, host, depth: 0 }]);
  const link = (await store.leaseNextLink((await store.domain(host))!.id, 'me', 60_000, 1000))!;
  await store.completePage({ linkId: link.id, owner: 'me', status: 'pending', notBefore, outcome: { kind: 'http-error', detail: { status: 503 } }, nodes: [], newLinks: [], domainReward: 0, at: 1000 });
}

test('the wait is read from the store only once the walk has been idle a while, and not past its time', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    await retryLater(store, 'w.test', 60_000);
    const watch = new WaitingWatch(store);
    assert.equal(await watch.read(undefined, 10_000), undefined, 'a page in flight: at work, not waiting');
    assert.equal(await watch.read(10_000, 10_000 + IDLE_MS - 1), undefined, 'a pause between two pages is no wait');
    assert.deepEqual(await watch.read(10_000, 10_000 + IDLE_MS), { links: 1, nextAt: 60_000, first: { url: 'http://w.test/1', kind: 'http-error', detail: { status: 503 } } });
    assert.equal(await watch.read(10_000, 60_000), undefined, 'due: no longer waiting');
  } finally {
    await store.close();
  }
});

test('the store is asked at most every five seconds: a new wait shows at the next ask, a wait that came due in between is dropped at once', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    await retryLater(store, 'soon.test', 20_000);
    const watch = new WaitingWatch(store);
    // Idle from the first read on: the first ask is not held back.
    assert.equal((await watch.read(10_000, 17_000))?.nextAt, 20_000);
    await retryLater(store, 'later.test', 90_000);
    assert.deepEqual(await watch.read(10_000, 19_999), { links: 1, nextAt: 20_000, first: { url: 'http://soon.test/1', kind: 'http-error', detail: { status: 503 } } },
      'not asked again within five seconds');
    assert.equal(await watch.read(10_000, 20_000), undefined, 'the wait it knew came due: not said, though not asked again');
    assert.deepEqual(await watch.read(10_000, 22_000), { links: 1, nextAt: 90_000, first: { url: 'http://later.test/1', kind: 'http-error', detail: { status: 503 } } },
      'five seconds after the last ask, asked again');
  } finally {
    await store.close();
  }
});
