import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearCopies } from '../../src/store/near-copies.js';
import type { NodeInput, Store } from '../../src/store/store.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { rawSql, sqliteDb, withSqliteStore } from '../support/db.js';
import { bandKeys, NEAR_COPY, shingleSet, toShingles } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';
import { sha256 } from '../../src/store/hash.js';
import { shingleBlob } from '../../src/store/rows.js';

const STORY = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const OTHER = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else was allowed to open it.';
const LANTERN = 'A lantern hung by the door of the boathouse, and its light fell on the wet stones of the slipway below the house.';
const node = (text: string) => ({ text, sentences: [text], metaWordIds: [] });
/** A node as a harvest gives it: with its band keys and the shingles they were made of. */
const signed = (text: string): NodeInput => {
  const shingles = shingleSet(words(text));
  return { ...node(text), bands: bandKeys(shingles), shingles };
};
const stored = (id: number, text: string) => ({ id, textHash: sha256(text), shingles: shingleSet(words(text)) });

test('a node alike with a stored one becomes a link to the closest; others stay new', () => {
  const edited = STORY.replace('at dusk', 'at night');
  const further = STORY.replace('at dusk', 'at night').replace('first boat', 'last ship');
  const out = nearCopies([node(edited), node(OTHER)], [[stored(1, further), stored(2, STORY)], [stored(1, further)]]);
  assert.equal(out[0]!.copyOf?.id, 2, 'the story with one word changed, not the one with three');
  assert.ok(out[0]!.copyOf!.similarity >= NEAR_COPY && out[0]!.copyOf!.similarity < 1);
  assert.equal(out[1]!.copyOf, undefined);
});

test('the same text is left to the store; a near-copy of an earlier node of the page is dropped; a copy the caller named stays', () => {
  assert.equal(nearCopies([node(STORY)], [[stored(2, STORY)]])[0]!.copyOf, undefined);
  const out = nearCopies([node(STORY), node(OTHER), node(STORY.replace('at dusk', 'at night'))], [[], [], []]);
  assert.deepEqual(out.map((n) => n.text), [STORY, OTHER]);
  const named = { ...node(STORY.replace('at dusk', 'at night')), copyOf: { id: 9, similarity: 0.8 } };
  assert.deepEqual(nearCopies([node(STORY), named], [[], [stored(2, STORY)]])[1], named);
});

/** Shingles 1..n, and a node carrying given shingles: the decision reads them, not its text. */
const upTo = (n: number, ...more: number[]) => toShingles([...Array.from({ length: n }, (_, i) => i + 1), ...more]);
const withShingles = (text: string, shingles: Uint32Array): NodeInput => ({ ...node(text), shingles });
const candidateOf = (id: number, shingles: Uint32Array) => ({ id, textHash: sha256(`stored ${id}`), shingles });

test('a near-copy is at least NEAR_COPY alike: 7 of 10 shingles shared is one, 6 of 10 is not, however alone it stands', () => {
  // 1..8 against 1..7, 9, 10: seven shared of ten, Jaccard exactly 0.7.
  const at = nearCopies([withShingles('new', upTo(8))], [[candidateOf(1, upTo(7, 9, 10))]]);
  assert.deepEqual(at[0]!.copyOf, { id: 1, similarity: 0.7 });
  // 1..8 against 1..6, 9, 10, 11: six shared of eleven; 1..6, 20, 21 against 1..6, 22, 23: six of ten. Each the only candidate, and not near.
  const below = nearCopies([withShingles('new', upTo(8)), withShingles('other', upTo(6, 20, 21))], [[candidateOf(1, upTo(6, 9, 10, 11))], [candidateOf(2, upTo(6, 22, 23))]]);
  assert.deepEqual(below.map((n) => n.copyOf), [undefined, undefined]);
  assert.ok(6 / 10 < NEAR_COPY && 7 / 10 >= NEAR_COPY);
});

test('of candidates equally alike the first ranked is kept; the same text twice on a page is left to the store', () => {
  const tie = nearCopies([withShingles('new', upTo(9))], [[candidateOf(4, upTo(9, 30)), candidateOf(3, upTo(9, 31))]]);
  assert.equal(tie[0]!.copyOf?.id, 4, 'the candidate sharing most band keys comes first and wins a tie');
  const twice = nearCopies([node(STORY), node(OTHER), node(STORY)], [[], [], []]);
  assert.deepEqual(twice.map((n) => n.text), [STORY, OTHER, STORY], 'an exact repeat is the store\'s to count, not a near-copy to drop');
  // An earlier node of the page exactly at NEAR_COPY drops the later one.
  const page = nearCopies([withShingles('first', upTo(8)), withShingles('second', upTo(7, 9, 10))], [[], []]);
  assert.deepEqual(page.map((n) => n.text), ['first']);
});

/** Completes one page of a.test with the nodes, its link added first. */
async function complete(store: Store, path: string, nodes: NodeInput[]) {
  await store.addLinks([{ url: `http://a.test${path}`, host: 'a.test', depth: 0 }]);
  const linkId = (await store.linkByUrl(`http://a.test${path}`))!.id;
  return store.completePage({ linkId, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes });
}

test('a stored candidate is compared by the shingles stored with it, not split again', () =>
  withSqliteStore(async (store) => {
    // The node's text is OTHER, its stored shingles and bands are STORY's: only the stored shingles make the probe a copy of it.
    const shingles = shingleSet(words(STORY));
    const [id] = (await complete(store, '/1', [{ ...node(OTHER), bands: bandKeys(shingles), shingles }])).nodeIds;
    assert.deepEqual((await complete(store, '/2', [signed(STORY.replace('at dusk', 'at night'))])).nodeIds, [id]);
  }));

test('pages committed together see each other: the second page\'s near-copy links to the first page\'s node', () =>
  withSqliteStore(async (store) => {
    await store.addLinks(['/1', '/2'].map((p) => ({ url: `http://a.test${p}`, host: 'a.test', depth: 0 })));
    const ids = await Promise.all(['/1', '/2'].map(async (p) => (await store.linkByUrl(`http://a.test${p}`))!.id));
    // Submitted in one turn: one group, one transaction.
    const [first, second] = await Promise.all([
      store.completePage({ linkId: ids[0]!, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: [signed(STORY)] }),
      store.completePage({ linkId: ids[1]!, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: [signed(STORY.replace('at dusk', 'at night'))] }),
    ]);
    assert.deepEqual(second!.nodeIds, first!.nodeIds);
    assert.deepEqual((await store.summary()).copies, { exact: 0, near: 1 });
  }));

test('after a group the database refused (its disk full), the near-copy search reads the band rows again: ids of nodes taken back go to others', async () => {
  const db = sqliteDb();
  const store = SqliteStore.open(db.url.slice('sqlite:'.length));
  // The store's own connection: a limit on the file's pages is how a test fills its disk.
  const conn = (store as unknown as { db: import('better-sqlite3').Database }).db;
  try {
    await store.addLinks(['/1', '/2', '/3'].map((p) => ({ url: `http://a.test${p}`, host: 'a.test', depth: 0 })));
    const ids = await Promise.all(['/1', '/2', '/3'].map(async (p) => (await store.linkByUrl(`http://a.test${p}`))!.id));
    const page = (i: number, nodes: NodeInput[]) => ({ linkId: ids[i]!, outcome: { kind: 'harvested' as const }, domainReward: 1, newLinks: [], nodes });
    conn.pragma(`max_page_count = ${conn.pragma('page_count', { simple: true })}`);
    // The story fits the pages there are; the second page's search reads its band rows; the third page's long text does not fit.
    const group = await Promise.allSettled([
      store.completePage(page(0, [signed(STORY)])),
      store.completePage(page(1, [signed(OTHER)])),
      store.completePage(page(2, [signed(`${LANTERN} `.repeat(200))])),
    ]);
    assert.deepEqual(group.map((r) => r.status), ['rejected', 'rejected', 'rejected'], 'a full disk fails the whole group');
    conn.pragma('max_page_count = 1073741823');
    // The lantern takes the story's id; a near-copy of it must find it by its band rows.
    const [lantern] = (await store.completePage(page(0, [signed(LANTERN)]))).nodeIds;
    const copy = await store.completePage(page(1, [signed(LANTERN.replace('wet stones', 'dry stones'))]));
    assert.deepEqual(copy.nodeIds, [lantern]);
  } finally {
    await store.close();
    await db.cleanup();
  }
});

test('a candidate read once is compared from memory after: what the row says since is not read again', () =>
  withSqliteStore(async (store, url) => {
    const [story] = (await complete(store, '/1', [signed(STORY)])).nodeIds;
    assert.deepEqual((await complete(store, '/2', [signed(STORY.replace('at dusk', 'at night'))])).nodeIds, [story], 'read, and kept');
    // Written behind the store's back, without the edit counter an author's edit bumps: only a read would see it.
    await rawSql(url, 'UPDATE nodes SET shingles = ? WHERE id = ?', [shingleBlob(shingleSet(words(OTHER))), story]);
    assert.deepEqual((await complete(store, '/3', [signed(STORY.replace('first boat', 'last boat'))])).nodeIds, [story]);
  }));

test('a candidate stored without its shingles is split once, then compared from memory', () =>
  withSqliteStore(async (store, url) => {
    // Stored as a store from before shingles were kept has it: band keys, no shingles.
    const [story] = (await complete(store, '/1', [{ ...node(STORY), bands: bandKeys(shingleSet(words(STORY))) }])).nodeIds;
    assert.deepEqual((await complete(store, '/2', [signed(STORY.replace('at dusk', 'at night'))])).nodeIds, [story], 'split, and kept');
    // Its text rewritten behind the store's back, without the edit counter an author's edit bumps: only a second split would see it.
    await rawSql(url, 'UPDATE nodes SET text = ? WHERE id = ?', [OTHER, story]);
    assert.deepEqual((await complete(store, '/3', [signed(STORY.replace('first boat', 'last boat'))])).nodeIds, [story]);
  }));
