import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { Frontier } from '../../src/walk/frontier.js';
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
