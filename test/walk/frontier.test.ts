import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import type { Store } from '../../src/store/store.js';
import { Frontier, type FrontierOptions, type Readiness } from '../../src/walk/frontier.js';
import { createStrategy } from '../../src/walk/strategies/strategy.js';
import { withSqliteStore } from '../support/db.js';

/** One wheel across processes: each process's frontier reads the scores the others changed. */

test('a process\'s wheel follows the rewards another process stored, after one refresh', () =>
  withSqliteStore(async (store) => {
    await store.addLinks(['a.test', 'b.test'].flatMap((h) => [1, 2, 3].map((i) => ({ url: `http://${h}/${i}`, host: h, depth: 0 }))));
    let now = 1000;
    const strategy = createStrategy('roulette');
    const mine = new Frontier(store, strategy, { readiness: () => 0, now: () => now });
    await mine.load();
    const a = (await store.domain('a.test'))!.id;
    const b = (await store.domain('b.test'))!.id;
    // Another process walks a page of a.test and stores its reward.
    now = 2000;
    const link = (await store.leaseNextLink(a, 'other', 10_000, now))!;
    await store.completePage({ linkId: link.id, owner: 'other', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 8, at: now });
    assert.equal(strategy.score(a), 1, 'not seen before the refresh');
    await mine.refreshScores();
    assert.equal(strategy.score(a), 9);
    assert.equal(strategy.score(b), 1);
    const rng = seedrandom('wheel');
    let drawnA = 0;
    for (let i = 0; i < 2000; i++) if (mine.draw(rng) === a) drawnA++;
    assert.ok(Math.abs(drawnA / 2000 - 0.9) < 0.03, `a.test drawn ${drawnA / 20} % of the time, 90 % expected`);
    await mine.refreshScores();
    assert.equal(strategy.score(a), 9, 'a second refresh with no change changes nothing');
  }));

test('a process\'s wheel takes in the domains another process found, after one refresh', () =>
  withSqliteStore(async (store) => {
    await store.addLinks([1, 2].map((i) => ({ url: `http://a.test/${i}`, host: 'a.test', depth: 0 })));
    let now = 1000;
    const strategy = createStrategy('roulette');
    const mine = new Frontier(store, strategy, { readiness: () => 0, now: () => now });
    await mine.load();
    // Another process walks a page of a.test; it links to c.test, a host this process never saw.
    now = 2000;
    const link = (await store.leaseNextLink((await store.domain('a.test'))!.id, 'other', 10_000, now))!;
    const found = { url: 'http://c.test/story', host: 'c.test', depth: 1 };
    await store.completePage({ linkId: link.id, owner: 'other', outcome: { kind: 'harvested' }, nodes: [], newLinks: [found], domainReward: 0, at: now });
    const c = (await store.domain('c.test'))!.id;
    const rng = seedrandom('wheel');
    const draws = () => Array.from({ length: 200 }, () => mine.draw(rng));
    assert.ok(!draws().includes(c), 'unknown before the refresh');
    await mine.refreshScores();
    const after = draws();
    assert.ok(after.includes(c), 'drawn after it');
    assert.ok(Math.abs(after.filter((d) => d === c).length / 200 - 0.5) < 0.15, 'with its share of the wheel: 1 of 2');
  }));

test('a domain this process found without work is drawn again once another process gives it links', () =>
  withSqliteStore(async (store) => {
    await store.addLinks(['a.test', 'b.test'].map((h) => ({ url: `http://${h}/`, host: h, depth: 0 })));
    let now = 1000;
    const strategy = createStrategy('roulette');
    const mine = new Frontier(store, strategy, { readiness: () => 0, now: () => now });
    await mine.load();
    const a = (await store.domain('a.test'))!.id;
    // Another process leases a.test's only link first: here a.test has no work.
    const link = (await store.leaseNextLink(a, 'other', 10_000, now))!;
    mine.exhausted(a, null);
    const rng = seedrandom('wheel');
    const draws = () => Array.from({ length: 100 }, () => mine.draw(rng));
    assert.ok(!draws().includes(a));
    // Its page links to more of a.test.
    now = 2000;
    const more = [1, 2].map((i) => ({ url: `http://a.test/${i}`, host: 'a.test', depth: 1 }));
    await store.completePage({ linkId: link.id, owner: 'other', outcome: { kind: 'harvested' }, nodes: [], newLinks: more, domainReward: 0, at: now });
    await mine.refreshScores();
    assert.ok(draws().includes(a), 'a.test has work again');
  }));

/**
 * One process's frontier over a real store: politeness's answers, retries that fall due, budgets
 * and hosts given up decide which domains the strategy may draw.
 */
async function twoDomains(store: Store, readiness: FrontierOptions['readiness'], clock: { now: number }, opts: { maxPagesPerDomain?: number } = {}) {
  await store.addLinks(['a.test', 'b.test'].flatMap((h) => [1, 2].map((i) => ({ url: `http://${h}/${i}`, host: h, depth: 0 }))));
  const frontier = new Frontier(store, createStrategy('bfs'), { readiness, now: () => clock.now, ...opts });
  await frontier.load();
  const a = (await store.domain('a.test'))!.id;
  const b = (await store.domain('b.test'))!.id;
  const drawn = () => new Set(Array.from({ length: 20 }, () => frontier.draw(Math.random)));
  return { frontier, a, b, drawn };
}

test('a host politeness holds back until a time is drawn from that time on, not a millisecond before', () =>
  withSqliteStore(async (store) => {
    const clock = { now: 1000 };
    const { frontier, a, b, drawn } = await twoDomains(store, (host) => (host === 'a.test' ? 1500 : 0), clock);
    assert.deepEqual([...drawn()], [b]);
    assert.equal(frontier.nextWakeAt(), 1500);
    assert.deepEqual(frontier.nextWake(), { at: 1500, host: 'a.test' });
    clock.now = 1499;
    assert.deepEqual([...drawn()], [b]);
    clock.now = 1500;
    assert.deepEqual(drawn(), new Set([a, b]), 'due exactly now');
    assert.equal(frontier.nextWakeAt(), undefined, 'nothing waits any more');
    assert.equal(frontier.nextWake(), undefined);
  }));

test('a busy host is not drawn until its page comes back; a host given up is never drawn again and is named', () =>
  withSqliteStore(async (store) => {
    const clock = { now: 1000 };
    const says = new Map<string, Readiness>([['a.test', 'busy'], ['b.test', 'gave-up']]);
    const { frontier, a, b, drawn } = await twoDomains(store, (host) => says.get(host)!, clock);
    assert.equal(frontier.anyEligible(), false);
    assert.equal(frontier.draw(Math.random), undefined);
    assert.equal(frontier.retired(b), true);
    assert.equal(frontier.retired(a), false);
    assert.deepEqual(frontier.givenUp(), ['b.test']);
    says.set('a.test', 0).set('b.test', 0);
    frontier.finished(a);
    frontier.finished(b);
    assert.equal(frontier.anyEligible(), true);
    assert.deepEqual([...drawn()], [a], 'b.test stays given up for the run, whatever politeness says later');
    assert.equal(frontier.nextWakeAt(), undefined, 'a busy host queues no wake-up: its answer frees it');
  }));

test('a domain that started its --max-pages-per-domain pages is retired', () =>
  withSqliteStore(async (store) => {
    const { frontier, a, b, drawn } = await twoDomains(store, () => 0, { now: 1000 }, { maxPagesPerDomain: 2 });
    frontier.started(a);
    assert.deepEqual(drawn(), new Set([a, b]));
    assert.equal(frontier.retired(a), false);
    frontier.started(a);
    assert.equal(frontier.retired(a), true);
    assert.deepEqual([...drawn()], [b]);
    frontier.finished(a);
    assert.deepEqual([...drawn()], [b], 'its page coming back does not bring it back');
  }));

test('a domain with nothing to lease: gone for good without a due time, back when its retry falls due with one', () =>
  withSqliteStore(async (store) => {
    const clock = { now: 1000 };
    const { frontier, a, b, drawn } = await twoDomains(store, () => 0, clock);
    frontier.exhausted(b, null);
    frontier.finished(b);
    assert.deepEqual([...drawn()], [a], 'no pending links: politeness saying ready does not bring it back');
    frontier.exhausted(a, 3000);
    frontier.exhausted(a, 2000);
    assert.equal(frontier.nextWakeAt(), 3000, 'one wake-up while it waits: the first due time holds');
    assert.equal(frontier.anyEligible(), false);
    clock.now = 2999;
    assert.equal(frontier.draw(Math.random), undefined);
    clock.now = 3000;
    assert.deepEqual([...drawn()], [a]);
    frontier.exhausted(a, 500);
    assert.equal(frontier.nextWakeAt(), 3000, 'a due time already past wakes it now, not in the past');
    frontier.exhausted(12345, 4000);
    assert.equal(frontier.nextWakeAt(), 3000, 'an unknown domain queues nothing');
  }));

test('new links on a host bring its domain in: one never seen with its stored score, one without work back to the draw', () =>
  withSqliteStore(async (store) => {
    const clock = { now: 1000 };
    const { frontier, a, b, drawn } = await twoDomains(store, () => 0, clock);
    assert.equal(frontier.size(), 2);
    assert.equal(frontier.host(a), 'a.test');
    assert.equal(frontier.host(999), undefined);
    frontier.exhausted(a, null);
    await store.addLinks([{ url: 'http://c.test/', host: 'c.test', depth: 1 }, { url: 'http://a.test/3', host: 'a.test', depth: 1 }]);
    const c = (await store.domain('c.test'))!.id;
    await frontier.noteNewLinks(['c.test', 'a.test', 'c.test', 'nowhere.test']);
    assert.equal(frontier.size(), 3, 'a host the store does not know is passed over');
    assert.equal(frontier.host(c), 'c.test');
    assert.deepEqual(drawn(), new Set([a, b, c]));
  }));

test('while a domain waits for its time, more answers queue no second wake-up; unknown domains are neither retired nor scheduled', () =>
  withSqliteStore(async (store) => {
    const clock = { now: 1000 };
    let ready = 1500;
    const { frontier, a, b, drawn } = await twoDomains(store, (host) => (host === 'a.test' ? ready : 0), clock);
    ready = 1200;
    frontier.started(a);
    frontier.finished(a);
    assert.equal(frontier.nextWakeAt(), 1500, 'the wake-up first queued');
    clock.now = 1200;
    assert.deepEqual([...drawn()], [b]);
    frontier.finished(4242);
    assert.equal(frontier.retired(4242), false);
    assert.equal(frontier.nextWakeAt(), 1500);
  }));
