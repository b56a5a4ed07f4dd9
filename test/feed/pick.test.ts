import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import seedrandom from 'seedrandom';
import { UserError } from '../../src/errors.js';
import { DEFAULT_PROPORTION, getProportion, parseProportion, PROPORTION_KEY, setProportion } from '../../src/feed/mix.js';
import { drawWeighted, pickNode } from '../../src/feed/pick.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';

/**
 * Draws are Bernoulli trials, so a count of crawler picks over n draws has standard deviation
 * sqrt(n p (1 - p)). A band of 4.5 sigma fails a correct picker with probability about 7e-6 per
 * check (normal approximation), under 1 in 15,000 for the eight checks below, whatever the
 * seed; and it still catches a picker off by three points at n = 10,000 (300 picks against a
 * band of 206 for p = 0.3).
 */
const DRAWS = 10_000;
const SIGMAS = 4.5;

function within(count: number, n: number, p: number): void {
  const sd = Math.sqrt(n * p * (1 - p));
  assert.ok(Math.abs(count - n * p) <= SIGMAS * sd, `${count} of ${n} is more than ${SIGMAS} sigma from ${n * p} (sigma ${sd.toFixed(1)})`);
}

async function seed(store: Store, authors: number, crawlers: number, word = 'cookie'): Promise<void> {
  const nodes = Array.from({ length: authors }, (_, i) => ({ text: `Author cookie ${i}.`, sentences: [`Author cookie ${i}.`], metaWords: [{ word, stem: 'cooki' }] }));
  await store.replaceMarkupFile({ path: '/story.ane', contentHash: 'h', sections: [{ name: null, attributes: {}, nodes }] });
  if (crawlers === 0) return;
  const [m] = await store.ensureMetaWords([{ word, stem: 'cooki' }]);
  await store.addLinks([{ url: 'http://recipes.test/', host: 'recipes.test', depth: 0 }]);
  const link = (await store.linkByUrl('http://recipes.test/'))!;
  await store.completePage({
    linkId: link.id, outcome: { kind: 'harvested' }, newLinks: [], domainReward: 1,
    nodes: Array.from({ length: crawlers }, (_, i) => ({ text: `Web cookie ${i}.`, sentences: [`Web cookie ${i}.`], metaWordIds: [m!.id] })),
  });
}

describe('pickNode', () => {
  let store: Store;
  before(async () => {
    store = await openStore('sqlite::memory:');
    await seed(store, 4, 3);
  });
  after(() => store.close());

  it(`draws crawler nodes with the proportion, and each node of an origin alike (${DRAWS} draws, ${SIGMAS} sigma)`, async () => {
    const rng = seedrandom('mix');
    const p = 0.3;
    const byText = new Map<string, number>();
    let crawler = 0;
    for (let i = 0; i < DRAWS; i++) {
      const node = (await pickNode(store, 'Cookies', { proportion: p, rng }))!;
      if (node.origin === 'crawler') crawler++;
      byText.set(node.text, (byText.get(node.text) ?? 0) + 1);
    }
    within(crawler, DRAWS, p);
    assert.equal(byText.size, 7);
    for (const [text, count] of byText) within(count, DRAWS, text.startsWith('Web') ? p / 3 : (1 - p) / 4);
  });

  it('stems the word and returns the node with its meta words', async () => {
    const node = (await pickNode(store, '  COOKIES ', { proportion: 0, rng: seedrandom('x') }))!;
    assert.equal(node.stem, 'cooki');
    assert.equal(node.origin, 'author');
    assert.equal(node.fallback, false);
    assert.deepEqual(node.metaWords.map((m) => m.stem), ['cooki']);
  });

  it('repeats itself with the same seed', async () => {
    const run = async () => {
      const rng = seedrandom('42');
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await pickNode(store, 'cookie', { proportion: 0.5, rng }))!.id);
      return out;
    };
    assert.deepEqual(await run(), await run());
  });

  it('falls back to the other origin, and finds nothing for an unknown word', async () => {
    const only = await openStore('sqlite::memory:');
    try {
      await seed(only, 2, 0);
      const node = (await pickNode(only, 'cookie', { proportion: 1, rng: seedrandom('f') }))!;
      assert.deepEqual([node.origin, node.fallback], ['author', true]);
      assert.equal(await pickNode(only, 'unicorn', { proportion: 0.5, rng: seedrandom('f') }), undefined);
    } finally {
      await only.close();
    }
  });
});

describe('the mix setting', () => {
  it('reads 0 to 1 and refuses anything else, naming the value and the range', () => {
    assert.equal(parseProportion('0'), 0);
    assert.equal(parseProportion('1'), 1);
    assert.equal(parseProportion(' .25 '), 0.25);
    assert.equal(parseProportion('30%'), 0.3);
    for (const bad of ['-0.1', '1.01', 'abc', '', 'NaN', 'Infinity', '0x1', '1e3', '0.5.5']) {
      assert.throws(() => parseProportion(bad), (e: unknown) =>
        e instanceof UserError && e.toLine().includes(`(got ${JSON.stringify(bad)})`) && /from 0 to 1/.test(e.message), bad);
    }
  });

  it(`defaults to ${DEFAULT_PROPORTION}, and one stored value is seen by every store on the database`, async () => {
    const s = await openStore('sqlite::memory:');
    try {
      assert.deepEqual(await getProportion(s), { value: DEFAULT_PROPORTION, source: 'default' });
      await setProportion(s, 0.3);
      assert.deepEqual(await getProportion(s), { value: 0.3, source: 'setting' });
      assert.equal(await s.getSetting(PROPORTION_KEY), '0.3');
      for (const bad of [1.5, -0.1, Number.NaN]) await assert.rejects(setProportion(s, bad), UserError, String(bad));
      assert.equal(await s.getSetting(PROPORTION_KEY), '0.3', 'a refused value leaves the stored one');
      await setProportion(s, 1);
      await setProportion(s, 0);
      assert.equal(await s.getSetting(PROPORTION_KEY), '0', 'both ends of the range are kept');
      await s.setSetting(PROPORTION_KEY, 'lots');
      await assert.rejects(getProportion(s), (e: unknown) => e instanceof UserError && /anwc mix 0\.5/.test(e.toLine()));
    } finally {
      await s.close();
    }
  });
});

test('drawWeighted: each item is drawn in proportion to its weight', () => {
  const items = [{ id: 1, weight: 0.1 }, { id: 2, weight: 0.3 }, { id: 3, weight: 0 }];
  const n = 4000;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const id = drawWeighted(items, i / n)!;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  assert.deepEqual([...counts.entries()].sort(), [[1, 1000], [2, 3000]], 'an even sweep of u gives exact shares; a weight of 0 is never drawn');
  assert.equal(drawWeighted([], 0.5), undefined);
  assert.equal(drawWeighted([{ id: 5, weight: 0 }, { id: 6, weight: 0 }], 0.75), 6, 'all weights 0: uniform');
});
