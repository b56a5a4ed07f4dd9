import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RobotsCache, robotsOrigin, robotsUrl, type RobotsStore } from '../../src/web/robots-cache.js';
import type { Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open.js';
import { ROBOTS_MAX_AGE_MS, robotsFromFetch } from '../../src/web/robots.js';

const T0 = Date.UTC(2024, 0, 1);

// Compile-time: the project's Store can be handed to RobotsCache as it is.
export const storeIsRobotsStore = (store: Store): RobotsStore => store;

/** A store that keeps JSON text and its expiry, as the robots table does, and gives back expired entries too. */
class JsonStore implements RobotsStore {
  readonly rows = new Map<string, { json: string; expiresAt: number }>();
  loads = 0;
  async loadRobots(key: string) {
    this.loads++;
    const row = this.rows.get(key);
    return row === undefined ? undefined : { robots: JSON.parse(row.json) as unknown, expiresAt: row.expiresAt };
  }
  async saveRobots(key: string, robots: unknown, expiresAt: number): Promise<void> {
    this.rows.set(key, { json: JSON.stringify(robots), expiresAt });
  }
}

test('origin and robots.txt URL of a page', () => {
  assert.equal(robotsOrigin('HTTPS://Example.org:443/a/b?c'), 'https://example.org');
  assert.equal(robotsUrl('http://example.org:8080/a/b?c#d'), 'http://example.org:8080/robots.txt');
});

test('an entry is served until it expires, then missed', async () => {
  let now = T0;
  const cache = new RobotsCache({ now: () => now });
  const origin = 'https://example.org';
  assert.equal(await cache.get(origin), undefined);
  const rules = robotsFromFetch({ status: 200, body: 'User-agent: *\nDisallow: /x\n' }, T0);
  await cache.put(origin, rules);
  now = T0 + ROBOTS_MAX_AGE_MS - 1;
  assert.equal(await cache.get(origin), rules);
  now = T0 + ROBOTS_MAX_AGE_MS;
  assert.equal(await cache.get(origin), undefined);
  assert.equal(await cache.stale(origin), rules, 'the stale entry is still there to grow the retry delay');
});

test('a failure entry expires at its retry time', async () => {
  let now = T0;
  const cache = new RobotsCache({ now: () => now });
  const rules = robotsFromFetch({ status: 503 }, T0);
  await cache.put('https://down.example', rules);
  assert.equal((await cache.get('https://down.example'))?.kind, 'disallow-all');
  now = rules.retryAfter!;
  assert.equal(await cache.get('https://down.example'), undefined);
});

test('persisted through the store: a new cache reads what an old one saved, expiry included', async () => {
  const store = new JsonStore();
  let now = T0;
  await new RobotsCache({ store, now: () => now }).put('https://example.org', robotsFromFetch({ status: 404 }, T0));
  const fresh = new RobotsCache({ store, now: () => now });
  assert.equal((await fresh.get('https://example.org'))?.kind, 'allow-all');
  assert.equal((await fresh.get('https://example.org'))?.kind, 'allow-all');
  assert.equal(store.loads, 1, 'the second get is served from memory');
  now = T0 + ROBOTS_MAX_AGE_MS;
  assert.equal(await new RobotsCache({ store, now: () => now }).get('https://example.org'), undefined);
});

test('an expired failure read back from the store still counts: the next process waits twice as long', async () => {
  const store = new JsonStore();
  const first = robotsFromFetch({ status: 503 }, T0);
  await new RobotsCache({ store, now: () => T0 }).put('https://down.example', first);
  const later = first.retryAfter!;
  const next = new RobotsCache({ store, now: () => later });
  assert.equal(await next.get('https://down.example'), undefined, 'expired: robots.txt is asked again');
  const again = robotsFromFetch({ status: 503 }, later, await next.stale('https://down.example'));
  assert.equal(again.failures, 2);
  assert.equal(again.retryAfter! - later, 2 * (first.retryAfter! - T0));
});

test('through the real SQLite store: saved by one cache, read by the next, until it expires', async () => {
  const store = await openStore('sqlite::memory:');
  try {
    const rules = robotsFromFetch({ status: 200, body: 'User-agent: *\nDisallow: /x\n' }, T0);
    await new RobotsCache({ store, now: () => T0 }).put('example.org', rules);
    assert.deepEqual(await new RobotsCache({ store, now: () => T0 + 1000 }).get('example.org'), rules);
    assert.equal(await new RobotsCache({ store, now: () => rules.expiresAt }).get('example.org'), undefined);
  } finally {
    await store.close();
  }
});

test('a stored value that is not RobotsRules (an old format) is a miss, not a crash', async () => {
  const store = new JsonStore();
  store.rows.set('example.org', { json: JSON.stringify({ rules: ['/x'] }), expiresAt: T0 + 1000 });
  assert.equal(await new RobotsCache({ store, now: () => T0 }).get('example.org'), undefined);
});

test('memory holds at most maxEntries origins, dropping the least recently used', async () => {
  const cache = new RobotsCache({ now: () => T0, maxEntries: 2 });
  const rules = robotsFromFetch({ status: 404 }, T0);
  await cache.put('https://a.example', rules);
  await cache.put('https://b.example', rules);
  await cache.get('https://a.example');
  await cache.put('https://c.example', rules);
  assert.equal(await cache.get('https://b.example'), undefined);
  assert.equal(await cache.get('https://a.example'), rules);
  assert.equal(await cache.get('https://c.example'), rules);
});
