import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markCopies, nearCopies } from '../../src/harvest/copies.js';
import { harvest } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb } from '../support/db.js';
import { startTestWeb } from '../support/testweb.js';
import { bandKeys, NEAR_COPY, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';
import { sha256 } from '../../src/store/hash.js';

const STORY = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const OTHER = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else was allowed to open it.';
const node = (text: string) => ({ text, sentences: [text], metaWordIds: [] });
const stored = (id: number, text: string) => ({ id, textHash: sha256(text), shingles: shingleSet(words(text)) });

test('a node alike with a stored one becomes a link to the closest; others stay new', () => {
  const edited = STORY.replace('at dusk', 'at night');
  const further = STORY.replace('at dusk', 'at night').replace('first boat', 'last ship');
  const out = nearCopies([node(edited), node(OTHER)], [[stored(1, further), stored(2, STORY)], [stored(1, further)]]);
  assert.equal(out[0]!.copyOf?.id, 2, 'the story with one word changed, not the one with three');
  assert.ok(out[0]!.copyOf!.similarity >= NEAR_COPY && out[0]!.copyOf!.similarity < 1);
  assert.equal(out[1]!.copyOf, undefined);
});

test('the same text is left to the store; a near-copy of an earlier node of the page is dropped', () => {
  assert.equal(nearCopies([node(STORY)], [[stored(2, STORY)]])[0]!.copyOf, undefined);
  const out = nearCopies([node(STORY), node(OTHER), node(STORY.replace('at dusk', 'at night'))], [[], [], []]);
  assert.deepEqual(out.map((n) => n.text), [STORY, OTHER]);
});

test('a stored node edited since it was last compared is compared by the text it holds now', async () => {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    const signed = (text: string) => ({ ...node(text), bands: bandKeys(shingleSet(words(text))) });
    await store.addLinks([{ url: 'http://a.test/1', host: 'a.test', depth: 0 }]);
    const linkId = (await store.linkByUrl('http://a.test/1'))!.id;
    const [id] = (await store.completePage({ linkId, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: [signed(STORY)] })).nodeIds;
    const probe = signed(STORY.replace('at dusk', 'at night'));
    assert.equal((await markCopies(store, [probe]))[0]!.copyOf?.id, id);
    const edited = STORY.replace('The keeper', 'Her father');
    await store.curateNode(id!, { text: { text: edited, sentences: [edited], bands: bandKeys(shingleSet(words(edited))) } }, 'ann');
    assert.deepEqual((await store.nodesSharingBands([probe.bands], 8))[0]!.map((c) => c.id), [id], 'the edited node still comes up as a candidate');
    assert.equal((await markCopies(store, [probe]))[0]!.copyOf, undefined, 'its Jaccard with what the node says now is 0.62');
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test('a stored candidate is compared by the shingles stored with it, not split again', async () => {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    // The node's text is OTHER, its stored shingles and bands are STORY's: only the stored shingles make the probe a copy of it.
    const shingles = shingleSet(words(STORY));
    await store.addLinks([{ url: 'http://a.test/1', host: 'a.test', depth: 0 }]);
    const linkId = (await store.linkByUrl('http://a.test/1'))!.id;
    const [id] = (await store.completePage({
      linkId, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: [{ ...node(OTHER), bands: bandKeys(shingles), shingles }],
    })).nodeIds;
    const near = STORY.replace('at dusk', 'at night');
    assert.equal((await markCopies(store, [{ ...node(near), bands: bandKeys(shingleSet(words(near))) }]))[0]!.copyOf?.id, id);
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test('a harvest links a site\'s repeated footer and a mirror\'s edited copy to the nodes they repeat; stats count them', async () => {
  const web = await startTestWeb();
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    const footer = 'This story was first printed in the Harbour Gazette, and it is shared here with the kind permission of its author.';
    for (const host of ['tales.test', 'mirror.test']) web.page(host, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
    web.page('tales.test', '/1.html', `<html><body><p>${STORY}</p><p>${footer}</p></body></html>`);
    web.page('tales.test', '/2.html', `<html><body><p>${OTHER}</p><p>${footer}</p></body></html>`);
    web.page('mirror.test', '/1.html', `<html><body><p>${STORY.replace('at dusk', 'at night')}</p></body></html>`);
    const urls = [web.url('tales.test', '/1.html'), web.url('tales.test', '/2.html'), web.url('mirror.test', '/1.html')];
    await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
    await harvest(store, {
      strategy: 'bfs', concurrency: 1, reward: 1, maxDepth: 1, hosts: ['*.test'], leaseMs: 60_000,
      fetcher: { resolve: web.resolve }, politeness: { delayMs: 0 }, narrative: {},
    });
    const sum = await store.summary();
    assert.equal(sum.nodes.crawler, 3, 'the story, the footer and the other story; the mirror\'s copy is none');
    assert.deepEqual(sum.copies, { exact: 1, near: 1 });
    const [story] = await store.nodes({ origin: 'crawler', limit: 1 });
    assert.equal(story!.text, STORY);
    await store.close();
    const stats = await anwc(['stats', '--db', db.url]);
    assert.match(stats.stdout, /paragraphs met again on other pages: 2 \(the same text 1, near-copies 1\)/);
  } finally {
    await store.close();
    await db.cleanup();
    await web.close();
  }
});
