import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { openStore } from '../../src/store/open.js';
import { Frontier } from '../../src/walk/frontier.js';
import { createStrategy } from '../../src/walk/strategies/strategy.js';
import { sqliteDb } from '../support/db.js';

/** One wheel across processes: each process's frontier reads the scores the others changed. */

test('a process\'s wheel follows the rewards another process stored, after one refresh', async () => {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
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
  } finally {
    await store.close();
    await db.cleanup();
  }
});
