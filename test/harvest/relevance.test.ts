import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { harvest, type HarvestOptions } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import { sqliteDb } from '../support/db.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * Relevance steering on a real walk: a search result's page links to a page whose anchor names the
 * meta word and to two that do not; with a budget of two pages, `--order relevance` spends the
 * second on the named one, discovery order on the first link found.
 */

const PROSE = 'The keeper climbed the stairs of the tower that night, and the lamp was still burning when the storm reached the harbour.';
const OTHER = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else was allowed to open it.';

let web: TestWeb;
before(async () => {
  web = await startTestWeb();
  web.page('sea.test', '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  web.page('sea.test', '/', `<html><body><p>${PROSE}</p><a href="/a.html">next</a><a href="/b.html">more</a><a href="/c.html">Storm tales</a></body></html>`);
  for (const p of ['a', 'b', 'c']) web.page('sea.test', `/${p}.html`, `<html><body><p>${OTHER}</p></body></html>`);
});
after(() => web.close());

async function walk(over: Partial<HarvestOptions>): Promise<{ walked: string[]; score: number | undefined }> {
  const db = sqliteDb();
  const store = await openStore(db.url);
  const before = ['a', 'b', 'c'].map((p) => web.count('sea.test', `/${p}.html`));
  try {
    const [storm] = await store.ensureMetaWords([{ word: 'storm', stem: 'storm' }]);
    await store.recordSeeds({ provider: 'file', terms: 'storm', results: [web.url('sea.test', '/')], metaWordIds: [storm!.id] }, [
      { url: web.url('sea.test', '/'), host: 'sea.test', depth: 0 },
    ]);
    await harvest(store, {
      strategy: 'bfs', concurrency: 1, seed: 1, reward: 1, maxDepth: 2, maxPages: 2, hosts: ['*.test'], leaseMs: 60_000,
      fetcher: { resolve: web.resolve }, politeness: { delayMs: 0 }, narrative: {}, ...over,
    });
    const walked = ['a', 'b', 'c'].filter((p, i) => web.count('sea.test', `/${p}.html`) > before[i]!);
    return { walked, score: (await store.domain('sea.test'))?.score };
  } finally {
    await store.close();
    await db.cleanup();
  }
}

test('--order relevance walks the link whose anchor names a meta word first; discovery order the first found', async () => {
  assert.deepEqual((await walk({})).walked, ['a']);
  assert.deepEqual((await walk({ narrative: { order: 'relevance' } })).walked, ['c']);
});

test('--reward relevance pays a page by its nodes on the topic, and a page with none costs a point', async () => {
  // The home page's one node speaks of the storm (+1); the second page's is about a recipe tin (-1).
  assert.equal((await walk({ reward: 'relevance' })).score, 1);
  assert.equal((await walk({ reward: { topic: 'nodes' } })).score, 2, 'without the cost of a page on no topic');
  assert.equal((await walk({ reward: 1 })).score, 3, 'the thesis rewards both pages');
});

test('under --reward relevance only a page on the topic counts depth afresh, where the thesis counts any page with a node', async () => {
  // The search result speaks of the storm; its link is a page of recipes, whose own link is two
  // hops from the search result and one from a page that yielded a node.
  web.page('tunnel.test', '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  web.page('tunnel.test', '/', `<html><body><p>${PROSE}</p><a href="/recipes.html">recipes</a></body></html>`);
  web.page('tunnel.test', '/recipes.html', `<html><body><p>${OTHER}</p><a href="/beyond.html">more</a></body></html>`);
  web.page('tunnel.test', '/beyond.html', `<html><body><p>${OTHER}</p></body></html>`);
  const beyond = async (reward: HarvestOptions['reward']) => {
    const db = sqliteDb();
    const store = await openStore(db.url);
    const was = web.count('tunnel.test', '/beyond.html');
    try {
      const [storm] = await store.ensureMetaWords([{ word: 'storm', stem: 'storm' }]);
      const home = web.url('tunnel.test', '/');
      await store.recordSeeds({ provider: 'file', terms: 'storm', results: [home], metaWordIds: [storm!.id] }, [{ url: home, host: 'tunnel.test', depth: 0 }]);
      await harvest(store, {
        strategy: 'bfs', concurrency: 1, seed: 1, reward, maxDepth: 1, hosts: ['*.test'], leaseMs: 60_000,
        fetcher: { resolve: web.resolve }, politeness: { delayMs: 0 }, narrative: {},
      });
      return web.count('tunnel.test', '/beyond.html') - was;
    } finally {
      await store.close();
      await db.cleanup();
    }
  };
  assert.equal(await beyond(1), 1);
  assert.equal(await beyond('relevance'), 0);
});
