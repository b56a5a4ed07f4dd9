import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { SCORE_FLOOR, TextTakenError, type MarkupFileInput, type Store } from '../../src/store/store.js';
import { rawSql, type TestDb } from '../support/db.js';
import { bandKeys, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';
import { BAND_FANOUT, keysOfBandsColumn } from '../../src/store/rows.js';
import { sha256 } from '../../src/store/hash.js';

/**
 * The one Store contract, run against every backend (practice 2). Each case gets a fresh
 * database, so cases say everything they assume.
 */
export interface Backend {
  name: string;
  fresh(): TestDb;
  /** Open each store on a thread of its own (OpenOptions.thread), as a harvest does. */
  thread?: boolean;
}

async function withStore(b: Backend, fn: (s: Store, db: TestDb) => Promise<void>): Promise<void> {
  const db = b.fresh();
  const s = await openStore(db.url, { thread: b.thread });
  try {
    await fn(s, db);
  } finally {
    await s.close();
    await db.cleanup();
  }
}

const w = (word: string, stem = word.toLowerCase()) => ({ word, stem });

function file(path: string, hash: string, nodes: { text: string; meta: string[] }[]): MarkupFileInput {
  return {
    path,
    contentHash: hash,
    sections: [{ name: 'begin', attributes: { display: null }, nodes: nodes.map((n) => ({ text: n.text, sentences: [n.text], metaWords: n.meta.map((m) => w(m)) })) }],
  };
}

const UNICODE = [
  'Emoji survive: 🌍🚀 and a family 👩‍👩‍👧 in one sentence.',
  '中文的句子也要保存。日本語の文もそうです。',
  'שלום עולם — נקודה. مرحبا بالعالم.',
];

export function contractSuite(b: Backend): void {
  describe(`Store contract on ${b.name}`, () => {
    it('opens a new database at the latest schema and reopens it unchanged', async () => {
      const db = b.fresh();
      try {
        const s1 = await openStore(db.url, { thread: b.thread });
        const v = await s1.schemaVersion();
        assert.ok(v >= 1);
        await s1.setSetting('k', 'v');
        await s1.close();
        const s2 = await openStore(db.url, { thread: b.thread });
        assert.equal(await s2.schemaVersion(), v);
        assert.equal(await s2.getSetting('k'), 'v');
        await s2.close();
      } finally {
        await db.cleanup();
      }
    });

    it('keys meta words by stem, keeping the first spelling, in input order', () =>
      withStore(b, async (s) => {
        const a = await s.ensureMetaWords([w('Running', 'run'), w('cat')]);
        const again = await s.ensureMetaWords([w('cat'), w('run', 'run'), w('dog')]);
        assert.deepEqual(a.map((m) => m.word), ['Running', 'cat']);
        assert.deepEqual(again.map((m) => m.word), ['cat', 'Running', 'dog']);
        assert.equal(again[1]!.id, a[0]!.id);
        assert.deepEqual(await s.metaWordByStem('run'), a[0]);
        // Stems that differ only in case or accent are different words (binary comparison).
        const [e1, e2] = await s.ensureMetaWords([w('café', 'café'), w('cafe', 'cafe')]);
        assert.notEqual(e1!.id, e2!.id);
        const longest = 'ж'.repeat(191);
        assert.equal((await s.ensureMetaWords([w(longest)]))[0]!.word, longest);
        await assert.rejects(s.ensureMetaWords([w(`${longest}ж`)]), RangeError);
      }));

    it('stores Unicode text and an 8,000-character node exactly', () =>
      withStore(b, async (s) => {
        const long = 'The machine demands language. '.repeat(267).slice(0, 8000);
        assert.equal(long.length, 8000);
        const texts = [...UNICODE, long];
        const r = await s.replaceMarkupFile(file('/u.ane', 'h1', texts.map((t) => ({ text: t, meta: ['världen', '世界'] }))));
        assert.equal(r.newNodes, 4);
        const nodes = await s.nodes({ origin: 'author' });
        assert.deepEqual(nodes.map((n) => n.text), texts);
        assert.deepEqual(nodes[0]!.sentences, [UNICODE[0]]);
        assert.deepEqual(nodes[0]!.metaWords.map((m) => m.word).sort(), ['världen', '世界'].sort());
        assert.equal((await s.countNodesOfStem('世界')).author, 4);
      }));

    it('imports a file twice without duplicates and replaces an edited file', () =>
      withStore(b, async (s) => {
        const v1 = file('/a.ane', 'h1', [{ text: 'One.', meta: ['alpha'] }, { text: 'Two.', meta: ['beta'] }]);
        const first = await s.replaceMarkupFile(v1, 1000);
        const twice = await s.replaceMarkupFile(v1, 2000);
        assert.equal(first.newNodes, 2);
        assert.equal(twice.newNodes, 0);
        const ids = (await s.nodes({})).map((n) => n.id);
        assert.equal(ids.length, 2);
        assert.deepEqual(await s.markupFile('/a.ane'), { id: first.fileId, path: '/a.ane', contentHash: 'h1', importedAt: 2000 });

        const v2 = file('/a.ane', 'h2', [{ text: 'One.', meta: ['gamma'] }, { text: 'Three.', meta: ['beta'] }]);
        const edited = await s.replaceMarkupFile(v2, 3000);
        assert.equal(edited.newNodes, 1);
        assert.equal(edited.removedNodes, 1);
        const after = await s.nodes({});
        assert.deepEqual(after.map((n) => n.text), ['One.', 'Three.']);
        assert.equal(after[0]!.id, ids[0], 'a kept text keeps its node');
        assert.deepEqual(after[0]!.metaWords.map((m) => m.stem), ['gamma'], 'its meta words are the new version\'s');
        assert.equal((await s.countNodesOfStem('alpha')).author, 0);
        assert.equal((await s.markupFile('/a.ane'))!.contentHash, 'h2');
      }));

    it('keeps a node another file still places when one file drops it', () =>
      withStore(b, async (s) => {
        await s.replaceMarkupFile(file('/a.ane', 'a1', [{ text: 'Shared.', meta: ['x'] }]));
        await s.replaceMarkupFile(file('/b.ane', 'b1', [{ text: 'Shared.', meta: ['y'] }]));
        assert.equal((await s.nodes({})).length, 1);
        const r = await s.replaceMarkupFile(file('/a.ane', 'a2', [{ text: 'Other.', meta: ['x'] }]));
        assert.equal(r.removedNodes, 0);
        assert.deepEqual((await s.nodes({ stem: 'y' })).map((n) => n.text), ['Shared.']);
      }));

    it('does not store again as an author node the text of a crawler node (an export of the harvest imported back)', () =>
      withStore(b, async (s) => {
        const [sea] = await s.ensureMetaWords([w('sea')]);
        await s.addLinks([{ url: 'http://c.test/', host: 'c.test', depth: 0 }]);
        await s.completePage({ linkId: (await s.linkByUrl('http://c.test/'))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
          nodes: [{ text: 'The sea came in.', sentences: ['The sea came in.'], relevance: 1, metaWordIds: [sea!.id] }] });
        const r = await s.replaceMarkupFile(file('/export.ane', 'e1', [{ text: 'The sea came in.', meta: ['sea'] }, { text: 'Mine.', meta: ['sea'] }]));
        assert.deepEqual([r.nodes, r.crawlerCopies], [1, 1]);
        assert.deepEqual((await s.nodes({})).map((n) => [n.origin, n.text]).sort(), [['author', 'Mine.'], ['crawler', 'The sea came in.']]);
      }));

    it('files a link under its own host after a page whose write made the host\'s domain was taken back', () =>
      withStore(b, async (s) => {
        await s.addLinks([{ url: 'http://from.test/', host: 'from.test', depth: 0 }]);
        const from = (await s.linkByUrl('http://from.test/'))!;
        // A reward no database takes fails the page's write after its new host's domain row was made.
        await assert.rejects(s.completePage({ linkId: from.id, outcome: { kind: 'harvested' }, domainReward: Number.NaN, nodes: [],
          newLinks: [{ url: 'http://lost.test/a', host: 'lost.test', depth: 1 }] }));
        assert.equal(await s.domain('lost.test'), undefined);
        assert.equal(await s.addLinks([{ url: 'http://next.test/', host: 'next.test', depth: 0 }]), 1);
        assert.equal(await s.addLinks([{ url: 'http://lost.test/b', host: 'lost.test', depth: 0 }]), 1);
        assert.equal((await s.linkByUrl('http://lost.test/b'))!.host, 'lost.test');
        assert.equal((await s.linkByUrl('http://next.test/'))!.host, 'next.test');
      }));

    it('a negative domain reward lowers the score to SCORE_FLOOR and no further', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2', '/3'].map((p) => ({ url: `http://f.test${p}`, host: 'f.test', depth: 0 })));
        const done = async (p: string, domainReward: number) =>
          s.completePage({ linkId: (await s.linkByUrl(`http://f.test${p}`))!.id, outcome: { kind: 'harvested' }, domainReward, newLinks: [], nodes: [] });
        await done('/1', -0.5);
        assert.equal((await s.domain('f.test'))!.score, 0.5);
        await done('/2', -1);
        assert.equal((await s.domain('f.test'))!.score, SCORE_FLOOR);
        await done('/3', 2);
        assert.equal((await s.domain('f.test'))!.score, SCORE_FLOOR + 2);
      }));

    it('finds the nodes of a stem by origin with the weights of their links, and pages through nodes', () =>
      withStore(b, async (s) => {
        await s.replaceMarkupFile(file('/a.ane', 'h', [{ text: 'A1.', meta: ['cookie'] }, { text: 'A2.', meta: ['cookie', 'milk'] }]));
        const [cookie] = await s.ensureMetaWords([w('cookie')]);
        await s.addLinks([{ url: 'http://c.test/', host: 'c.test', depth: 0 }]);
        const link = (await s.linkByUrl('http://c.test/'))!;
        await s.completePage({ linkId: link.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
          nodes: [{ text: 'C1.', sentences: ['C1.'], relevance: 0.5, metaWordIds: [cookie!.id], metaWeights: [0.25] }] });
        assert.deepEqual(await s.countNodesOfStem('cookie'), { author: 2, crawler: 1 });
        assert.deepEqual(await s.countNodesOfStem('nothing'), { author: 0, crawler: 0 });
        const authors = await s.weightsOfStem('cookie', 'author');
        assert.deepEqual(await Promise.all(authors.map(async (a) => [(await s.node(a.id))!.text, a.weight])), [['A1.', 1], ['A2.', 1]]);
        const [cw] = await s.weightsOfStem('cookie', 'crawler');
        assert.equal(cw!.weight, 0.25);
        const c = (await s.node(cw!.id))!;
        assert.equal(c.sourceUrl, 'http://c.test/');
        assert.equal(c.relevance, 0.5);
        assert.deepEqual(await s.weightsOfStem('milk', 'crawler'), []);
        const page1 = await s.nodes({ limit: 2 });
        const page2 = await s.nodes({ afterId: page1[1]!.id, limit: 2 });
        assert.deepEqual([...page1, ...page2].map((n) => n.text), ['A1.', 'A2.', 'C1.']);
        assert.deepEqual((await s.nodes({ origin: 'author', stem: 'milk' })).map((n) => n.text), ['A2.']);
      }));

    it('a paragraph met again on another page is recorded as a copy of its node; a near-copy links to the node it copies; band keys find candidates', () =>
      withStore(b, async (s) => {
        const [sea] = await s.ensureMetaWords([w('sea')]);
        const text = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
        const near = text.replace('at dusk', 'at night');
        const other = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else could open it.';
        const node = (t: string, extra: object = {}) => ({ text: t, sentences: [t], metaWordIds: [sea!.id], bands: bandKeys(shingleSet(words(t))), ...extra });
        const pages = ['http://a.test/1', 'http://a.test/2', 'http://b.test/3', 'http://b.test/4'];
        await s.addLinks(pages.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
        const complete = async (url: string, nodes: object[]) =>
          s.completePage({ linkId: (await s.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: nodes as never });
        const first = await complete(pages[0]!, [node(text), node(other)]);
        assert.equal(first.newNodes, 2);
        const [found] = await s.nodesSharingBands([bandKeys(shingleSet(words(near)))], 8);
        assert.deepEqual(found!.map((f) => f.id), [first.nodeIds[0]], 'the near text shares bands with its original, not with the other paragraph');
        assert.deepEqual(found!.map((f) => [f.textHash, f.shingles]), [[sha256(text), shingleSet(words(text))]], 'stored without shingles: its hash, and its text split');
        assert.deepEqual(await s.nodesSharingBands([], 8), []);
        const again = await complete(pages[1]!, [node(text)]);
        assert.deepEqual(again, { ...again, newNodes: 0, nodeIds: [first.nodeIds[0]] }, 'the same text is the same node');
        const copy = await complete(pages[2]!, [node(near, { copyOf: { id: first.nodeIds[0], similarity: 0.85 } })]);
        assert.deepEqual(copy.nodeIds, [first.nodeIds[0]]);
        assert.equal(copy.newNodes, 0, 'a near-copy makes no node');
        assert.deepEqual((await s.summary()).nodes, { author: 0, crawler: 2 });
        assert.deepEqual((await s.summary()).copies, { exact: 1, near: 1 });
        const twice = 'A lantern hung by the door of the boathouse, and its light fell on the wet stones of the slipway below.';
        await complete(pages[3]!, [node(twice), node(twice)]);
        assert.deepEqual((await s.summary()).copies, { exact: 1, near: 1 }, 'a text twice on the page it came from is not a copy of itself');

        // An author edits the first node's text: near-copies are found of what it now says, not of what it said.
        await s.curateNode(first.nodeIds[0]!, { text: { text: other.replace('tin box', 'biscuit tin'), sentences: [], bands: bandKeys(shingleSet(words(other.replace('tin box', 'biscuit tin')))) } }, 'ann', 20);
        const [ofOld] = await s.nodesSharingBands([bandKeys(shingleSet(words(near)))], 8);
        assert.deepEqual(ofOld, [], 'the old text\'s bands are gone');
        const [ofNew] = await s.nodesSharingBands([bandKeys(shingleSet(words(other)))], 8);
        assert.deepEqual(ofNew!.map((f) => f.id).sort(), [first.nodeIds[0], first.nodeIds[1]].sort());
      }));

    it('a candidate comes with the shingles it was stored with and no text; one stored without, or edited since, comes with its text instead', () =>
      withStore(b, async (s) => {
        const texts = ['The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the boats came in.',
          'The keeper climbed the stairs of the tower at noon, and the lamp was cleaned before the boats went out.'];
        const pages = texts.map((_, i) => `http://sh.test/${i}`);
        await s.addLinks(pages.map((url) => ({ url, host: 'sh.test', depth: 0 })));
        const shingles = shingleSet(words(texts[0]!));
        const bands = bandKeys(shingles);
        // The second node is stored under the first one's bands, without shingles: a store from before they were kept.
        const [withThem, without] = (await Promise.all(texts.map(async (t, i) => (await s.completePage({
          linkId: (await s.linkByUrl(pages[i]!))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
          nodes: [{ text: t, sentences: [t], metaWordIds: [], bands, ...(i === 0 ? { shingles } : {}) }],
        })).nodeIds[0]!))) as [number, number];
        const candidates = async () => new Map((await s.nodesSharingBands([bands], 8))[0]!.map((c) => [c.id, c]));
        const found = await candidates();
        assert.deepEqual([...found.keys()].sort(), [withThem, without].sort());
        assert.deepEqual(found.get(withThem), { id: withThem, textHash: sha256(texts[0]!), shingles }, 'the very hashes, in order, and no text');
        assert.deepEqual(found.get(without), { id: without, textHash: sha256(texts[1]!), shingles: shingleSet(words(texts[1]!)) }, 'split from its text');
        const edited = texts[0]!.replace('at dusk', 'at night');
        await s.curateNode(withThem!, { text: { text: edited, sentences: [edited], bands } }, 'ann', 20);
        assert.deepEqual((await candidates()).get(withThem), { id: withThem, textHash: sha256(edited), shingles: shingleSet(words(edited)) }, 'an edited text is split again when it comes up');
      }));

    it('a band key takes no node once it holds BAND_FANOUT: a search reads its first ones, and finds a later node by its other keys', () =>
      withStore(b, async (s, db) => {
        const n = BAND_FANOUT + 6;
        const pages = Array.from({ length: n }, (_, i) => `http://fan.test/${i}`);
        await s.addLinks(pages.map((url) => ({ url, host: 'fan.test', depth: 0 })));
        // Band 0 has one key for every node; bands 1-15 are the node's own.
        const sig = (i: number) => [7, ...Array.from({ length: 15 }, (_, k) => 1000 * (i + 1) + k)];
        const ids: number[] = [];
        for (let i = 0; i < n; i++) {
          const t = `Paragraph number ${i} of the shared key, long enough to pass as one.`;
          const done = await s.completePage({
            linkId: (await s.linkByUrl(pages[i]!))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
            nodes: [{ text: t, sentences: [t], metaWordIds: [], bands: sig(i) }],
          });
          ids.push(done.nodeIds[0]!);
        }
        const stored = await rawSql(db.url, 'SELECT id, bands FROM nodes WHERE bands IS NOT NULL ORDER BY id');
        const under7 = stored.filter((r) => keysOfBandsColumn(r.bands).includes(7)).map((r) => Number(r.id));
        assert.deepEqual(under7, ids.slice(0, BAND_FANOUT), 'the key took its first BAND_FANOUT nodes, and no more');
        const [shared] = await s.nodesSharingBands([[7]], n);
        assert.deepEqual(shared!.map((c) => c.id).sort((x, y) => x - y), ids.slice(0, BAND_FANOUT), 'the key holds its first BAND_FANOUT nodes');
        const [late] = await s.nodesSharingBands([sig(n - 1)], 1);
        assert.deepEqual(late!.map((c) => c.id), [ids[n - 1]], 'a node after the key filled is found by its own keys');
      }));

    it('completePage links a near-copy to the stored node it copies, drops one of an earlier node of the page, and compares with what an edited node says now', () =>
      withStore(b, async (s) => {
        const story = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
        const near = story.replace('at dusk', 'at night');
        const other = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else was allowed to open it.';
        const signed = (t: string) => ({ text: t, sentences: [t], metaWordIds: [], bands: bandKeys(shingleSet(words(t))), shingles: shingleSet(words(t)) });
        const pages = [1, 2, 3, 4].map((i) => `http://nc.test/${i}`);
        await s.addLinks(pages.map((url) => ({ url, host: 'nc.test', depth: 0 })));
        const complete = async (i: number, texts: string[]) => s.completePage({
          linkId: (await s.linkByUrl(pages[i]!))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: texts.map(signed),
        });
        const first = await complete(0, [story, other, near]);
        assert.equal(first.newNodes, 2, 'the page\'s own near-copy of its first paragraph is dropped');
        assert.equal(first.nodeIds.length, 2);
        const copy = await complete(1, [near]);
        assert.deepEqual(copy.nodeIds, [first.nodeIds[0]], 'the near text is a link to the story');
        assert.equal(copy.newNodes, 0);
        assert.deepEqual((await s.summary()).copies, { exact: 0, near: 1 });
        const edited = story.replace('The keeper', 'Her father');
        await s.curateNode(first.nodeIds[0]!, { text: { text: edited, sentences: [edited], bands: bandKeys(shingleSet(words(edited))) } }, 'ann', 20);
        const after = await complete(2, [near]);
        assert.equal(after.newNodes, 1, 'its Jaccard with what the node says now is 0.62: a node of its own');
        assert.notEqual(after.nodeIds[0], first.nodeIds[0]);
      }));

    it('marks nodes by what their source page says; the gone ones are drawn only when asked; the last checks kept per scope', () =>
      withStore(b, async (s) => {
        const [cookie] = await s.ensureMetaWords([w('cookie')]);
        const long = `http://c.test/${'p/'.repeat(600)}page.html`;
        await s.addLinks([long, 'http://d.test/'].map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
        for (const [url, texts] of [[long, ['C1.', 'C2.']], ['http://d.test/', ['D1.']]] as const) {
          await s.completePage({ linkId: (await s.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
            nodes: texts.map((t) => ({ text: t, sentences: [t], metaWordIds: [cookie!.id] })) });
        }
        assert.deepEqual(await s.nodeSources(), ['http://c.test/' + 'p/'.repeat(600) + 'page.html', 'http://d.test/'].sort());
        const ofLong = await s.nodes({ origin: 'crawler', sourceUrl: long });
        assert.deepEqual(ofLong.map((n) => [n.text, n.status, n.checkedAt]), [['C1.', 'ok', null], ['C2.', 'ok', null]]);
        await s.setNodeStatus([ofLong[0]!.id], 'gone', 500);
        await s.setNodeStatus([ofLong[1]!.id], 'changed', 500);
        assert.deepEqual(await s.countNodesOfStem('cookie'), { author: 0, crawler: 2 });
        assert.deepEqual(await s.countNodesOfStem('cookie', { withGone: true }), { author: 0, crawler: 3 });
        const texts = async (ws: { id: number }[]) => Promise.all(ws.map(async (x) => (await s.node(x.id))!.text));
        assert.deepEqual(await texts(await s.weightsOfStem('cookie', 'crawler')), ['C2.', 'D1.']);
        assert.deepEqual(await texts(await s.weightsOfStem('cookie', 'crawler', { withGone: true })), ['C1.', 'C2.', 'D1.']);
        assert.deepEqual({ ...(await s.node(ofLong[0]!.id))!, metaWords: [] }, { ...ofLong[0]!, metaWords: [], status: 'gone', checkedAt: 500 });
        assert.deepEqual((await s.summary()).nodeStatus, { ok: 1, changed: 1, gone: 1 });

        const check = (url: string, state: string, at: number) => ({ url, state, status: 200, detail: null, etag: '"e"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT', checkedAt: at });
        await s.saveUrlChecks('task:a', [check(long, 'ok', 1), check('http://d.test/', 'broken', 1)], true);
        await s.saveUrlChecks('task:b', [check('http://d.test/', 'ok', 1)], true);
        await s.saveUrlChecks('task:a', [check('http://d.test/', 'moved', 2)], false);
        assert.deepEqual(await s.urlChecks('task:a'), [check(long, 'ok', 1), check('http://d.test/', 'moved', 2)].sort((x, y) => (x.url < y.url ? -1 : 1)));
        await s.saveUrlChecks('task:a', [check('http://e.test/', 'ok', 3)], true);
        assert.deepEqual(await s.urlChecks('task:a'), [check('http://e.test/', 'ok', 3)], 'a whole run\'s results replace the last');
        assert.deepEqual(await s.urlChecks('task:b'), [check('http://d.test/', 'ok', 1)], 'scopes are apart');
      }));

    it('curates a node: review, text and meta words changed in one step each with an audit line; a rejected node is never drawn; filters find nodes', () =>
      withStore(b, async (s) => {
        const [cookie, milk] = await s.ensureMetaWords([w('cookie'), w('milk')]);
        const pages = ['http://a.test/1', 'https://b.test/2', 'http://ab.test/3'];
        await s.addLinks(pages.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
        const texts = ['Cookies 100% baked_well.', 'Milk and COOKIES.', 'Other words here.'];
        for (const [i, url] of pages.entries()) {
          await s.completePage({ linkId: (await s.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
            nodes: [{ text: texts[i]!, sentences: [texts[i]!], metaWordIds: [cookie!.id] }] });
        }
        const all = await s.nodes({ origin: 'crawler' });
        const [a, bNode, c] = all;
        assert.deepEqual(all.map((n) => n.review), ['unreviewed', 'unreviewed', 'unreviewed']);
        const found = async (q: Parameters<Store['nodes']>[0]) => (await s.nodes(q)).map((n) => n.text);
        assert.deepEqual(await found({ contains: 'cookies' }), [texts[0], texts[1]], 'text search ignores ASCII case');
        assert.deepEqual(await found({ contains: '100%' }), [texts[0]], 'a % in the search is a percent sign');
        assert.deepEqual(await found({ contains: 'cookies_100' }), [], 'an underscore is itself, not any character');
        assert.deepEqual(await found({ contains: 'd_w' }), [texts[0]]);
        assert.deepEqual(await found({ host: 'b.test' }), [texts[1]], 'a host matches http and https, never a longer name');
        assert.deepEqual(await found({ host: 'a.test' }), [texts[0]]);
        const at = (await s.nodes({ origin: 'crawler' })).map((n) => n.createdAt);
        assert.deepEqual(await found({ createdFrom: at[1], createdTo: at[1] }), texts.filter((_, i) => at[i] === at[1]), 'a time range, both ends included');
        assert.deepEqual(await found({ createdFrom: Math.max(...at) + 1 }), []);

        const approved = await s.curateNode(a!.id, { review: 'approved' }, 'ann', 10);
        assert.equal(approved!.review, 'approved');
        await s.curateNode(bNode!.id, { review: 'rejected' }, 'ann', 11);
        assert.deepEqual(await found({ review: 'rejected' }), [texts[1]]);
        assert.deepEqual((await s.summary()).reviews, { unreviewed: 1, approved: 1, rejected: 1 });
        assert.deepEqual(await s.countNodesOfStem('cookie'), { author: 0, crawler: 2 }, 'the rejected node is not drawn');
        assert.deepEqual((await s.weightsOfStem('cookie', 'crawler')).map((x) => x.id), [a!.id, c!.id]);

        const edited = await s.curateNode(c!.id, { text: { text: 'Better words here.', sentences: ['Better words here.'] }, metaWordIds: [milk!.id] }, 'bob', 12);
        assert.equal(edited!.text, 'Better words here.');
        assert.deepEqual(edited!.metaWords.map((m) => m.stem), ['milk']);
        assert.deepEqual(await s.countNodesOfStem('milk'), { author: 0, crawler: 1 });
        await assert.rejects(s.curateNode(c!.id, { review: 'approved', text: { text: texts[0]!, sentences: [] } }, 'bob', 13),
          (e: unknown) => e instanceof TextTakenError && e.takenBy === a!.id);
        assert.equal((await s.node(c!.id))!.review, 'unreviewed', 'a refused change leaves the node as it was, review included');
        assert.equal(await s.curateNode(999999, { review: 'approved' }, 'bob'), undefined);
        const unchanged = await s.curateNode(a!.id, { review: 'approved', metaWordIds: [cookie!.id] }, 'bob', 14);
        assert.equal(unchanged!.review, 'approved');

        const audit = await s.nodeAudit({ limit: 10 });
        assert.deepEqual(audit.map((e) => [e.nodeId, e.who, e.action, e.before, e.after, e.at]), [
          [c!.id, 'bob', 'meta', JSON.stringify([cookie!.id]), JSON.stringify([milk!.id]), 12],
          [c!.id, 'bob', 'text', texts[2], 'Better words here.', 12],
          [bNode!.id, 'ann', 'review', 'unreviewed', 'rejected', 11],
          [a!.id, 'ann', 'review', 'unreviewed', 'approved', 10],
        ], 'newest first; nothing recorded for a change that changed nothing or was refused');
        assert.deepEqual((await s.nodeAudit({ nodeId: a!.id, limit: 10 })).map((e) => e.action), ['review']);
        const times = await s.nodeTimes(2);
        assert.deepEqual(times.map((x) => x.sourceUrl), [pages[2], pages[1]], 'the newest first, as many as asked');
        assert.ok(times.every((x) => typeof x.createdAt === 'number' && x.createdAt > 0));
        assert.equal((await s.nodeAudit({ limit: 1 })).length, 1);
      }));

    it('reads the story back: files in path order, sections and their nodes in markup order', () =>
      withStore(b, async (s) => {
        await s.replaceMarkupFile({ path: '/b.ane', contentHash: 'b', sections: [
          { name: 'begin', attributes: {}, nodes: [{ text: 'B1.', sentences: ['B1.'], metaWords: [w('x')] }, { text: 'B2.', sentences: ['B2.'], metaWords: [] }] },
          { name: null, attributes: {}, nodes: [{ text: 'B3.', sentences: ['B3.'], metaWords: [] }] },
        ] });
        await s.replaceMarkupFile(file('/a.ane', 'a', [{ text: 'B2.', meta: [] }, { text: 'A1.', meta: [] }]));
        const id = async (t: string) => (await s.nodes({})).find((n) => n.text === t)!.id;
        assert.deepEqual(await s.story(), [
          { path: '/a.ane', sections: [{ name: 'begin', nodeIds: [await id('B2.'), await id('A1.')] }] },
          { path: '/b.ane', sections: [{ name: 'begin', nodeIds: [await id('B1.'), await id('B2.')] }, { name: null, nodeIds: [await id('B3.')] }] },
        ]);
      }));

    it('records searches and tells which meta words were never searched', () =>
      withStore(b, async (s) => {
        const [a, bw] = await s.ensureMetaWords([w('alpha'), w('beta')]);
        assert.deepEqual((await s.listMetaWords({ neverSearched: true })).map((m) => m.word), ['alpha', 'beta']);
        const q = await s.recordSearch({ provider: 'file', terms: 'alpha', results: ['http://a.test/'], metaWordIds: [a!.id], at: 5000 });
        assert.ok(q > 0);
        assert.deepEqual((await s.listMetaWords({ neverSearched: true })).map((m) => m.id), [bw!.id]);
        assert.deepEqual(await s.queryMetaWords(q), [a]);
        assert.deepEqual(await s.queryMetaWords(q + 1000), []);
        const all = await s.listMetaWords();
        assert.deepEqual(all.map((m) => [m.word, m.lastSearchedAt, m.nodes]), [['alpha', 5000, 0], ['beta', null, 0]]);
      }));

    it('adds links once by URL, with their domains at score 1', () =>
      withStore(b, async (s) => {
        const links = [
          { url: 'http://a.test/1', host: 'a.test', depth: 0 },
          { url: 'http://a.test/2', host: 'a.test', depth: 0 },
          { url: 'http://b.test/1', host: 'b.test', depth: 1 },
        ];
        assert.equal(await s.addLinks(links, 100), 3);
        assert.equal(await s.addLinks([...links, { url: 'http://a.test/3', host: 'a.test', depth: 2 }], 200), 1);
        assert.equal(await s.addLinks([]), 0);
        const a = (await s.domain('a.test'))!;
        assert.deepEqual({ ...a, id: 0 }, { id: 0, host: 'a.test', score: 1, pages: 0, nodes: 0, errors: 0, nextFetchAt: null });
        const l = (await s.linkByUrl('http://b.test/1'))!;
        assert.deepEqual([l.host, l.depth, l.status, l.discoveredAt], ['b.test', 1, 'pending', 100]);
        assert.deepEqual((await s.domainsWithPending()).map((d) => d.host), ['a.test', 'b.test']);
        const mark = (await s.domainsWithLinksAfter(Number.MAX_SAFE_INTEGER)).newestLinkId;
        assert.equal(mark, (await s.linkByUrl('http://a.test/3'))!.id, 'the newest link');
        await s.addLinks(['http://c.test/1', 'http://a.test/4'].map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
        const after = await s.domainsWithLinksAfter(mark);
        assert.deepEqual(after.domains.map((d) => d.host), ['a.test', 'c.test'], 'a known domain given a link and a new one');
        assert.equal(after.newestLinkId, (await s.linkByUrl('http://a.test/4'))!.id);
        assert.deepEqual((await s.domainsWithLinksAfter(after.newestLinkId)).domains, []);
        // A link walked before anyone asked leaves its domain nothing to walk: the domain is not told.
        await s.addLinks([{ url: 'http://d.test/1', host: 'd.test', depth: 0 }]);
        const walked = (await s.leaseNextLink((await s.domain('d.test'))!.id, 'p1', 1000, 5000))!;
        await s.completePage({ linkId: walked.id, owner: 'p1', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0, at: 5100 });
        const later = await s.domainsWithLinksAfter(after.newestLinkId);
        assert.deepEqual([later.domains, later.newestLinkId], [[], walked.id], 'the newest link moves on, with no domain to walk');
      }));

    it('leases links in discovery order, one holder each, and takes back expired leases', () =>
      withStore(b, async (s) => {
        await s.addLinks(['3', '1', '2'].map((p) => ({ url: `http://a.test/${p}`, host: 'a.test', depth: 0 })));
        const dom = (await s.domain('a.test'))!;
        const t0 = 1_000_000;
        const l1 = (await s.leaseNextLink(dom.id, 'p1', 1000, t0))!;
        const l2 = (await s.leaseNextLink(dom.id, 'p2', 1000, t0))!;
        assert.deepEqual([l1.url, l2.url], ['http://a.test/3', 'http://a.test/1']);
        assert.deepEqual([l1.status, l1.leaseOwner, l1.leaseExpiresAt], ['leased', 'p1', t0 + 1000]);
        const l3 = (await s.leaseNextLink(dom.id, 'p1', 1000, t0))!;
        assert.equal(l3.url, 'http://a.test/2');
        assert.equal(await s.leaseNextLink(dom.id, 'p1', 1000, t0 + 999), undefined, 'every link is held');
        assert.deepEqual(await s.domainsWithPending(t0 + 999), []);
        // p2 died: its lease runs out and the link goes to someone else.
        assert.deepEqual((await s.domainsWithPending(t0 + 1000)).map((d) => d.host), ['a.test']);
        const again = (await s.leaseNextLink(dom.id, 'p3', 1000, t0 + 1000))!;
        assert.equal(again.url, 'http://a.test/3');
        assert.equal(again.leaseOwner, 'p3');
        const stale = await s.completePage({ linkId: l1.id, owner: 'p1', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 1 });
        assert.deepEqual(stale, { applied: false, nodeIds: [], newNodes: 0, newLinks: 0 }, 'a lease taken over is no longer p1\'s to complete');
        await assert.rejects(s.completePage({ linkId: 999_999, outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0 }), /no link 999999/);
        assert.equal(await s.releaseExpiredLeases(t0 + 1500), 2);
        assert.equal((await s.leaseNextLink(dom.id, 'dfs', 1000, t0 + 1500, 'newest'))!.url, 'http://a.test/2', 'newest first when asked');
        assert.equal((await s.link(l2.id))!.status, 'pending');
        assert.equal((await s.link(again.id))!.status, 'leased');
      }));

    it('keeps topic profiles, replaced whole; a link keeps its evidence; crawler nodes linked to no meta word are counted', () =>
      withStore(b, async (s) => {
        const [sea, lamp] = await s.ensureMetaWords([w('sea'), w('lamp')]);
        await s.saveProfiles([
          { metaWordId: sea!.id, terms: { wave: 0.8, tide: 0.6 }, anchors: ['tide'], sources: 1 },
          { metaWordId: lamp!.id, terms: {}, anchors: [], sources: 0 },
        ], 1000);
        assert.deepEqual(await s.profiles(), [
          { metaWordId: sea!.id, terms: { wave: 0.8, tide: 0.6 }, anchors: ['tide'], sources: 1, builtAt: 1000 },
          { metaWordId: lamp!.id, terms: {}, anchors: [], sources: 0, builtAt: 1000 },
        ].sort((x, y) => x.metaWordId - y.metaWordId), 'by meta word id');
        await s.saveProfiles([{ metaWordId: lamp!.id, terms: { light: 1 }, anchors: [], sources: 2 }], 2000);
        assert.deepEqual(await s.profiles(), [{ metaWordId: lamp!.id, terms: { light: 1 }, anchors: [], sources: 2, builtAt: 2000 }]);

        await s.addLinks([{ url: 'http://e.test/', host: 'e.test', depth: 0 }]);
        const link = (await s.linkByUrl('http://e.test/'))!;
        const evidence = { score: 0.21, literal: null, similarity: 0.21, terms: ['wave', 'tide'] };
        const r = await s.completePage({ linkId: link.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [], nodes: [
          { text: 'The waves came in with the tide.', sentences: ['The waves came in with the tide.'], metaWordIds: [sea!.id, lamp!.id], metaWeights: [0.21, 0.75],
            metaEvidence: [evidence, { score: 0.75, literal: 'text', similarity: 0.25, terms: ['light'] }] },
          { text: 'Prices went up again.', sentences: ['Prices went up again.'], metaWordIds: [] },
          { text: 'Nobody asked why.', sentences: ['Nobody asked why.'], metaWordIds: [] },
        ] });
        const links = await s.nodeLinks(r.nodeIds[0]!);
        assert.deepEqual(links.map((l) => [l.metaWord.word, l.weight, l.evidence?.literal ?? null]), [['lamp', 0.75, 'text'], ['sea', 0.21, null]], 'highest weight first');
        assert.deepEqual(links[1]!.evidence, evidence);
        assert.deepEqual(await s.nodeLinks(r.nodeIds[1]!), []);
        assert.equal((await s.summary()).offTopic, 2);
        await s.replaceMarkupFile(file('/o.ane', 'h', [{ text: 'An author node without a link.', meta: [] }]));
        assert.equal((await s.summary()).offTopic, 2, 'author nodes are not counted');
        const [authorLink] = await s.nodeLinks((await s.nodes({ origin: 'author' }))[0]!.id);
        assert.equal(authorLink, undefined);
      }));

    it('completes a page in one step: nodes, links, outcome, counters', () =>
      withStore(b, async (s) => {
        const [m1, m2] = await s.ensureMetaWords([w('wake'), w('halt')]);
        await s.addLinks([{ url: 'http://a.test/', host: 'a.test', depth: 0 }, { url: 'http://a.test/x', host: 'a.test', depth: 0 }]);
        const dom = (await s.domain('a.test'))!;
        const l = (await s.leaseNextLink(dom.id, 'me', 60_000))!;
        const r = await s.completePage({
          linkId: l.id, owner: 'me', outcome: { kind: 'harvested', detail: { status: 200, nodes: 2 } },
          nodes: [
            { text: UNICODE[0]!, sentences: [UNICODE[0]!], relevance: 0.25, metaWordIds: [m1!.id] },
            { text: 'A repeated paragraph.', sentences: ['A repeated paragraph.'], metaWordIds: [m1!.id, m2!.id] },
          ],
          newLinks: [{ url: 'http://b.test/', host: 'b.test', depth: 1, referrerId: l.id }, { url: 'http://a.test/x', host: 'a.test', depth: 1 }],
          domainReward: 1, etag: '"e1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT', at: 4242,
        });
        assert.deepEqual([r.applied, r.newNodes, r.newLinks, r.nodeIds.length], [true, 2, 1, 2]);
        const done = (await s.link(l.id))!;
        assert.deepEqual([done.status, done.leaseOwner, done.etag, done.lastModified], ['done', null, '"e1"', 'Tue, 01 Jan 2030 00:00:00 GMT']);
        assert.deepEqual(done.outcome, { kind: 'harvested', detail: { status: 200, nodes: 2 } });
        assert.equal((await s.linkByUrl('http://b.test/'))!.referrerId, l.id);
        assert.deepEqual(await s.domain('a.test'), { ...dom, score: 2, pages: 1, nodes: 2 });

        // The same paragraph on another page links to the node already stored.
        const l2 = (await s.leaseNextLink(dom.id, 'me', 60_000))!;
        const r2 = await s.completePage({
          linkId: l2.id, status: 'done', outcome: { kind: 'harvested' }, newLinks: [], domainReward: 0.5,
          nodes: [{ text: 'A repeated paragraph.', sentences: ['A repeated paragraph.'], metaWordIds: [m2!.id] }],
        });
        assert.equal(r2.newNodes, 0);
        assert.equal(r2.nodeIds[0], r.nodeIds[1]);
        assert.equal((await s.nodes({ origin: 'crawler' })).length, 2);
        assert.equal((await s.domain('a.test'))!.score, 2.5);

        const top = await s.topDomains(1);
        assert.deepEqual([top.domains.map((d) => [d.host, d.score]), top.totalScore], [[['a.test', 2.5]], 3.5]);
        const [b1] = await s.domainsWithPending();
        const l3 = (await s.leaseNextLink(b1!.id, 'me', 60_000))!;
        // A leased link brings the URL of the page it was found on; a seed has none.
        assert.deepEqual([l3.url, l3.referrerUrl, l.referrerUrl], ['http://b.test/', l.url, null]);
        await s.completePage({ linkId: l3.id, status: 'failed', outcome: { kind: 'failed', detail: { failure: 'timeout' } }, nodes: [], newLinks: [], domainReward: 0 });
        assert.deepEqual(await s.domain('b.test'), { ...(await s.domain('b.test'))!, pages: 0, errors: 1, score: 1 });
        assert.equal((await s.link(l3.id))!.status, 'failed');
      }));

    it('pages completed at once are each stored as alone; one that fails costs the others nothing', () =>
      withStore(b, async (s) => {
        await s.addLinks([1, 2, 3, 4].map((i) => ({ url: `http://g.test/${i}`, host: 'g.test', depth: 0 })));
        const dom = (await s.domain('g.test'))!;
        const leased = [];
        for (let i = 0; i < 4; i++) leased.push((await s.leaseNextLink(dom.id, 'me', 60_000))!);
        const page = (linkId: number, text: string) => ({
          linkId, owner: 'me', outcome: { kind: 'harvested' as const }, domainReward: 1,
          nodes: [{ text, sentences: [text], metaWordIds: [] }], newLinks: [{ url: `http://h.test/${linkId}`, host: 'h.test', depth: 1 }],
        });
        const results = await Promise.allSettled([
          s.completePage(page(leased[0]!.id, 'The first page told of a ferry.')),
          s.completePage(page(leased[1]!.id, 'The first page told of a ferry.')),
          s.completePage(page(987_654, 'A page whose link was never stored.')),
          s.completePage({ ...page(leased[2]!.id, 'A page whose lease another walker holds.'), owner: 'someone else' }),
          s.completePage(page(leased[3]!.id, 'The last page told of a lighthouse.')),
        ]);
        assert.equal(results[2]!.status, 'rejected', 'a page of no stored link fails');
        const ok = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
        assert.deepEqual(ok.map((r) => r && [r.applied, r.newLinks]), [[true, 1], [true, 1], undefined, [false, 0], [true, 1]]);
        assert.deepEqual([ok[3]!.newNodes, ok[4]!.newNodes], [0, 1]);
        // The two pages that met one text at once: one stored it and the other found it there; on
        // MySQL their transactions run side by side, so either may be first.
        assert.deepEqual([ok[0]!.newNodes, ok[1]!.newNodes].sort(), [0, 1]);
        assert.equal(ok[1]!.nodeIds[0], ok[0]!.nodeIds[0], 'the same text met on another page is the same node');
        assert.deepEqual(await Promise.all(leased.map(async (l) => (await s.link(l.id))!.status)), ['done', 'done', 'leased', 'done']);
        assert.deepEqual(await s.domain('g.test'), { ...dom, score: 4, pages: 3, nodes: 3 });
        assert.equal((await s.nodes({ origin: 'crawler' })).length, 2);
      }));

    it('summarizes nodes, links, outcomes and failures; reads back queries and runs', () =>
      withStore(b, async (s) => {
        const [m] = await s.ensureMetaWords([w('sea')]);
        const qid = await s.recordSearch({ provider: 'wikipedia', terms: 'sea', results: ['http://s.test/1', 'http://s.test/2', 'http://s.test/3'], metaWordIds: [m!.id] });
        await s.addLinks(['1', '2', '3'].map((n) => ({ url: `http://s.test/${n}`, host: 's.test', depth: 0, queryId: qid })));
        const dom = (await s.domain('s.test'))!;
        const outcomes = [
          { status: 'done' as const, outcome: { kind: 'harvested', detail: { status: 200 } }, nodes: [{ text: 'One node.', sentences: ['One node.'], metaWordIds: [m!.id] }] },
          { status: 'failed' as const, outcome: { kind: 'failed', detail: { failure: 'timeout' } }, nodes: [] },
          { status: 'failed' as const, outcome: { kind: 'http-error', detail: { status: 404 } }, nodes: [] },
        ];
        for (const o of outcomes) {
          const l = (await s.leaseNextLink(dom.id, 'me', 60_000))!;
          await s.completePage({ linkId: l.id, ...o, newLinks: [], domainReward: 0 });
        }
        const sum = await s.summary();
        assert.deepEqual(sum, {
          nodes: { author: 0, crawler: 1 }, metaWords: 1, queries: 1, domains: 1,
          links: { done: 1, failed: 2 }, outcomes: { harvested: 1, failed: 1, 'http-error': 1 }, failures: { timeout: 1, 'http-404': 1 },
          retries: { retried: 0 }, nodeStatus: { ok: 1, changed: 0, gone: 0 }, reviews: { unreviewed: 1, approved: 0, rejected: 0 }, copies: { exact: 0, near: 0 },
          offTopic: 0,
        });
        const q = (await s.searchQuery(qid))!;
        assert.deepEqual([q.provider, q.terms, q.results.length], ['wikipedia', 'sea', 3]);
        assert.equal(await s.searchQuery(qid + 100), undefined);
        const r1 = await s.startRun({ params: {}, seed: null, at: 1 });
        const r2 = await s.startRun({ params: {}, seed: 7, at: 2 });
        assert.deepEqual((await s.runs(5)).map((r) => r.id), [r2, r1]);
      }));

    it('a transient failure goes back to pending with its attempts counted, not leased before its time', () =>
      withStore(b, async (s) => {
        await s.addLinks([{ url: 'http://r.test/1', host: 'r.test', depth: 0 }, { url: 'http://r.test/2', host: 'r.test', depth: 0 }]);
        const dom = (await s.domain('r.test'))!;
        const first = (await s.leaseNextLink(dom.id, 'me', 60_000, 1000))!;
        const done = await s.completePage({
          linkId: first.id, owner: 'me', status: 'pending', notBefore: 5000, outcome: { kind: 'http-error', detail: { status: 503 } },
          nodes: [], newLinks: [], domainReward: 0, at: 1000,
        });
        assert.equal(done.applied, true);
        const back = (await s.link(first.id))!;
        assert.deepEqual([back.status, back.attempts, back.notBefore, back.outcome?.kind], ['pending', 1, 5000, 'http-error']);
        assert.equal((await s.domain('r.test'))!.errors, 0, 'not an error until it fails for good');
        const second = (await s.leaseNextLink(dom.id, 'me', 60_000, 2000))!;
        assert.equal(second.url, 'http://r.test/2', 'the waiting link is passed over before its time');
        assert.equal(await s.leaseNextLink(dom.id, 'me', 60_000, 2000), undefined);
        assert.equal(await s.nextDueAt(dom.id), 5000, 'the domain knows when its waiting link is due');
        assert.deepEqual(await s.waitingRetries(2000), {
          links: 1, nextAt: 5000, first: { url: 'http://r.test/1', kind: 'http-error', detail: { status: 503 } },
        }, 'the walk knows how many links wait, until when, and what put the first back');
        assert.equal(await s.waitingRetries(5000), null, 'a link due is not waiting');
        assert.deepEqual((await s.summary()).retries, { retried: 1 });
        assert.deepEqual((await s.domainsWithPending(2000)).map((d) => d.host), ['r.test'], 'a domain with a waiting retry still has work');
        const again = (await s.leaseNextLink(dom.id, 'me', 60_000, 5000))!;
        assert.equal(again.id, first.id, 'due at its time');
        assert.equal(again.attempts, 1);
        await s.completePage({ linkId: again.id, owner: 'me', status: 'failed', outcome: { kind: 'http-error', detail: { status: 503 } }, nodes: [], newLinks: [], domainReward: 0 });
        const failed = (await s.link(first.id))!;
        assert.deepEqual([failed.status, failed.notBefore], ['failed', null]);
        assert.deepEqual((await s.summary()).retries, { retried: 1 });
        assert.equal(await s.waitingRetries(0), null, 'a link failed for good waits for nothing');
        assert.equal(await s.nextDueAt(dom.id), null);
      }));

    it('the wait a walk reports names the link due first and what put it back', () =>
      withStore(b, async (s) => {
        await s.addLinks(['1', '2'].map((n) => ({ url: `http://q.test/${n}`, host: 'q.test', depth: 0 })));
        const dom = (await s.domain('q.test'))!;
        for (const [notBefore, status] of [[9000, 503], [3000, 429]] as const) {
          const link = (await s.leaseNextLink(dom.id, 'me', 60_000, 1000))!;
          await s.completePage({
            linkId: link.id, owner: 'me', status: 'pending', notBefore, outcome: { kind: 'http-error', detail: { status } }, nodes: [], newLinks: [], domainReward: 0, at: 1000,
          });
        }
        assert.deepEqual(await s.waitingRetries(2000), {
          links: 2, nextAt: 3000, first: { url: 'http://q.test/2', kind: 'http-error', detail: { status: 429 } },
        }, 'the link due first, not the first stored');
      }));

    it('a link put back without a try (its robots.txt could not be had) keeps its attempts, and waits as a retry does', () =>
      withStore(b, async (s) => {
        await s.addLinks([{ url: 'http://w.test/1', host: 'w.test', depth: 0 }]);
        const dom = (await s.domain('w.test'))!;
        const first = (await s.leaseNextLink(dom.id, 'me', 60_000, 1000))!;
        await s.completePage({
          linkId: first.id, owner: 'me', status: 'pending', notBefore: 5000, attempted: false, outcome: { kind: 'robots', detail: { retryAt: 5000, failures: 1 } },
          nodes: [], newLinks: [], domainReward: 0, at: 1000,
        });
        const back = (await s.link(first.id))!;
        assert.deepEqual([back.status, back.attempts, back.notBefore], ['pending', 0, 5000]);
        assert.equal(await s.leaseNextLink(dom.id, 'me', 60_000, 4999), undefined, 'not before its time');
        assert.deepEqual((await s.summary()).retries, { retried: 0 }, 'no try was spent');
        assert.deepEqual(await s.waitingRetries(4999), { links: 1, nextAt: 5000, first: { url: 'http://w.test/1', kind: 'robots', detail: { retryAt: 5000, failures: 1 } } });
        const again = (await s.leaseNextLink(dom.id, 'me', 60_000, 5000))!;
        await s.completePage({
          linkId: again.id, owner: 'me', status: 'pending', notBefore: 9000, outcome: { kind: 'http-error', detail: { status: 503 } },
          nodes: [], newLinks: [], domainReward: 0, at: 5000,
        });
        assert.equal((await s.link(first.id))!.attempts, 1, 'a try of its own counts');
        assert.deepEqual((await s.summary()).retries, { retried: 1 });
        assert.equal((await s.waitingRetries(5000))?.nextAt, 9000);
      }));

    it('claims a host for every process: its delay, its requests in flight, then its next link; the page\'s answer moves the next time', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2', '/3'].map((p) => ({ url: `http://h.test${p}`, host: 'h.test', depth: 0 })));
        const id = (await s.domain('h.test'))!.id;
        const claim = (owner: string, now: number, perHost = 1) => s.claimNextLink(id, owner, { leaseMs: 10_000, now, order: 'discovery', perHost, gapMs: 1000 });
        const first = await claim('a', 1000);
        assert.ok('links' in first && first.links[0]!.url === 'http://h.test/1' && first.links[0]!.leaseOwner === 'a');
        assert.deepEqual(await claim('b', 1500), { waitUntil: 2000 }, 'the delay holds for another process');
        assert.deepEqual(await claim('b', 2000), { busyUntil: 2000 }, 'one request in flight per host, whoever holds it');
        const second = await claim('b', 2000, 2);
        assert.ok('links' in second && second.links[0]!.url === 'http://h.test/2', 'two in flight when --per-host 2');
        await s.completePage({ linkId: first.links[0]!.id, owner: 'a', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 1, at: 2100, hostNextAt: 9000 });
        assert.equal((await s.domain('h.test'))!.nextFetchAt, 9000, 'a Retry-After answer keeps every process away');
        await s.completePage({ linkId: second.links[0]!.id, owner: 'b', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0, at: 2200, hostNextAt: 3200 });
        assert.equal((await s.domain('h.test'))!.nextFetchAt, 9000, 'an earlier time never shortens the wait');
        assert.deepEqual(await claim('c', 8999), { waitUntil: 9000 });
        const third = await claim('c', 9000);
        assert.ok('links' in third && third.links[0]!.url === 'http://h.test/3');
        await s.completePage({ linkId: third.links[0]!.id, owner: 'c', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0, at: 9100 });
        assert.deepEqual(await claim('c', 20_000), { none: true });
      }));

    it('a claim of several links leases the host\'s next ones in order, each a live lease; only the holder gives back those it did not start', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2', '/3', '/4', '/5'].map((p) => ({ url: `http://n.test${p}`, host: 'n.test', depth: 0 })));
        const id = (await s.domain('n.test'))!.id;
        const claim = (owner: string, now: number, count: number, perHost = 1) =>
          s.claimNextLink(id, owner, { leaseMs: 10_000, now, order: 'discovery', perHost, gapMs: 0, count });
        const first = await claim('a', 1000, 3);
        assert.ok('links' in first, JSON.stringify(first));
        assert.deepEqual(first.links.map((l) => [l.url, l.leaseOwner, l.leaseExpiresAt]), ['/1', '/2', '/3'].map((p) => [`http://n.test${p}`, 'a', 11_000]));
        assert.deepEqual(await claim('b', 1000, 1, 3), { busyUntil: 1000 }, 'three held are three in flight');
        const fourth = await claim('b', 1000, 1, 4);
        assert.ok('links' in fourth && fourth.links.length === 1 && fourth.links[0]!.url === 'http://n.test/4');
        await s.completePage({ linkId: first.links[0]!.id, owner: 'a', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0, at: 1100 });
        const ids = first.links.map((l) => l.id);
        assert.equal(await s.releaseLinks('b', ids), 0, 'not b\'s to give back');
        assert.equal(await s.releaseLinks('a', ids), 2, 'the two a did not start; the done one stays done');
        assert.deepEqual(await Promise.all(ids.map(async (i) => (await s.link(i))!.status)), ['done', 'pending', 'pending']);
        assert.equal((await s.link(ids[1]!))!.leaseOwner, null);
        const rest = await claim('c', 2000, 8, 4);
        assert.ok('links' in rest);
        assert.deepEqual(rest.links.map((l) => l.url), ['/2', '/3', '/5'].map((p) => `http://n.test${p}`), 'what is left, in order; b\'s live one skipped');
      }));

    it('a claim of several takes expired leases and pending links together, in the walk\'s order', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2', '/3'].map((p) => ({ url: `http://e.test${p}`, host: 'e.test', depth: 0 })));
        const id = (await s.domain('e.test'))!.id;
        const claim = (owner: string, now: number, count: number) =>
          s.claimNextLink(id, owner, { leaseMs: 10_000, now, order: 'discovery', perHost: 1, gapMs: 0, count });
        const dead = await claim('a', 1000, 2);
        assert.ok('links' in dead && dead.links.length === 2);
        const back = await claim('b', 11_000, 2);
        assert.ok('links' in back, JSON.stringify(back));
        assert.deepEqual(back.links.map((l) => [l.url, l.leaseOwner]), [['http://e.test/1', 'b'], ['http://e.test/2', 'b']]);
      }));

    it('claims made at once answer as if made one after another: one host is claimed once, another beside it', () =>
      withStore(b, async (s) => {
        await s.addLinks([...['/1', '/2'].map((p) => ({ url: `http://one.test${p}`, host: 'one.test', depth: 0 })), { url: 'http://two.test/1', host: 'two.test', depth: 0 }]);
        const [one, two] = [(await s.domain('one.test'))!.id, (await s.domain('two.test'))!.id];
        const claim = (id: number, owner: string) => s.claimNextLink(id, owner, { leaseMs: 10_000, now: 1000, order: 'discovery', perHost: 1, gapMs: 1000 });
        const [a, b2, c] = await Promise.all([claim(one, 'a'), claim(one, 'b'), claim(two, 'c')]);
        const leased = [a, b2].flatMap((r) => ('links' in r ? r.links.map((l) => l.url) : []));
        assert.deepEqual(leased, ['http://one.test/1'], 'the host\'s first link, leased once');
        assert.deepEqual([a, b2].find((r) => !('links' in r)), { waitUntil: 2000 }, 'the other claim waits for the delay the first set');
        assert.ok('links' in c && c.links[0]!.url === 'http://two.test/1' && c.links[0]!.leaseOwner === 'c');
        assert.equal((await s.link((await s.linkByUrl('http://one.test/2'))!.id))!.status, 'pending');
      }));

    it('a claim takes back a lease its holder let expire, before later links in the walk\'s order; an expired lease is not in flight', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2'].map((p) => ({ url: `http://x.test${p}`, host: 'x.test', depth: 0 })));
        const id = (await s.domain('x.test'))!.id;
        const claim = (owner: string, now: number) => s.claimNextLink(id, owner, { leaseMs: 10_000, now, order: 'discovery', perHost: 1, gapMs: 1000 });
        const first = await claim('a', 1000);
        assert.ok('links' in first && first.links[0]!.url === 'http://x.test/1');
        assert.deepEqual(await claim('b', 5000), { busyUntil: 2000 }, 'a live lease is a request in flight');
        // The holder died: at 11,000 its lease ran out.
        const back = await claim('b', 11_000);
        assert.ok('links' in back && back.links[0]!.url === 'http://x.test/1' && back.links[0]!.leaseOwner === 'b', JSON.stringify(back));
        assert.equal((await s.link(first.links[0]!.id))!.leaseExpiresAt, 21_000);
      }));

    it('heartbeats register workers and renew their leases; scores changed since a time are read back', () =>
      withStore(b, async (s) => {
        await s.addLinks(['/1', '/2'].map((p) => ({ url: `http://w.test${p}`, host: 'w.test', depth: 0 })));
        const id = (await s.domain('w.test'))!.id;
        const link = (await s.leaseNextLink(id, 'w1', 1000, 100))!;
        await s.heartbeat('w1', { now: 500, leaseMs: 1000, pages: 3 });
        assert.equal((await s.link(link.id))!.leaseExpiresAt, 1500, 'the lease now runs a lease from the beat');
        await s.heartbeat('w2', { now: 600, leaseMs: 1000, pages: 0 });
        assert.deepEqual((await s.liveWorkers(0)).map((x) => [x.owner, x.pages, x.leases, x.startedAt, x.heartbeatAt]), [['w1', 3, 1, 500, 500], ['w2', 0, 0, 600, 600]]);
        assert.deepEqual((await s.liveWorkers(550)).map((x) => x.owner), ['w2'], 'a worker silent since before then is not live');
        await s.heartbeat('w1', { now: 700, leaseMs: 1000, pages: 5 });
        await s.workerStopped('w2', 800);
        assert.deepEqual((await s.liveWorkers(0)).map((x) => [x.owner, x.pages, x.startedAt]), [['w1', 5, 500]]);

        await s.completePage({ linkId: link.id, owner: 'w1', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 2, at: 5000 });
        assert.deepEqual(await s.scoresSince(4000), { scores: [{ id, host: 'w.test', score: 3 }], latest: 5000 });
        assert.deepEqual(await s.scoresSince(5001), { scores: [], latest: 5001 });
        const other = (await s.leaseNextLink(id, 'w1', 1000, 6000))!;
        await s.completePage({ linkId: other.id, owner: 'w1', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 0, at: 7000 });
        assert.equal((await s.scoresSince(5001)).scores.length, 0, 'a page without reward leaves the score\'s time alone');
      }));

    it('leases by priority when asked (best-first), ties in discovery order', () =>
      withStore(b, async (s) => {
        await s.addLinks([
          { url: 'http://p.test/low', host: 'p.test', depth: 0, priority: 0.1 },
          { url: 'http://p.test/high', host: 'p.test', depth: 0, priority: 0.9 },
          { url: 'http://p.test/mid-a', host: 'p.test', depth: 0, priority: 0.5 },
          { url: 'http://p.test/mid-b', host: 'p.test', depth: 0, priority: 0.5 },
        ]);
        const dom = (await s.domain('p.test'))!;
        const order: string[] = [];
        for (let i = 0; i < 4; i++) order.push((await s.leaseNextLink(dom.id, 'me', 60_000, Date.now(), 'priority'))!.url.slice(14));
        assert.deepEqual(order, ['high', 'mid-a', 'mid-b', 'low']);
        assert.equal((await s.linkByUrl('http://p.test/high'))!.priority, 0.9);
      }));

    it('retryFailed puts failed links back, all or by kind; requeueRefused puts back what settings refused', () =>
      withStore(b, async (s) => {
        const urls = ['a', 'b', 'c', 'd', 'e'].map((x) => `http://f.test/${x}`);
        await s.addLinks(urls.map((url) => ({ url, host: 'f.test', depth: 0 })));
        const dom = (await s.domain('f.test'))!;
        const ends = [
          { status: 'failed' as const, outcome: { kind: 'failed', detail: { failure: 'timeout' } } },
          { status: 'failed' as const, outcome: { kind: 'http-error', detail: { status: 502 } } },
          { status: 'failed' as const, outcome: { kind: 'http-error', detail: { status: 404 } } },
          { status: 'excluded' as const, outcome: { kind: 'refused', detail: { reason: 'address-refused' } } },
          { status: 'excluded' as const, outcome: { kind: 'robots', detail: { reason: 'disallow: /e' } } },
        ];
        for (const e of ends) {
          const l = (await s.leaseNextLink(dom.id, 'me', 60_000))!;
          await s.completePage({ linkId: l.id, ...e, nodes: [], newLinks: [], domainReward: 0 });
        }
        assert.equal(await s.retryFailed(['timeout', '5xx']), 2, 'the timeout and the 502, not the 404');
        assert.equal((await s.linkByUrl(urls[2]!))!.status, 'failed');
        assert.equal(await s.retryFailed(['4xx']), 1);
        assert.equal(await s.retryFailed(), 0, 'none left failed');
        assert.equal(await s.requeueRefused(), 1, 'a refusal by settings comes back; a robots verdict does not');
        assert.deepEqual((await s.linkByUrl(urls[3]!))!.status, 'pending');
        assert.deepEqual((await s.linkByUrl(urls[4]!))!.status, 'excluded');
        assert.equal(await s.requeueRefused(), 0);
      }));

    it('records a query with its seed links in one step, each link tied to the query', () =>
      withStore(b, async (s) => {
        const [m] = await s.ensureMetaWords([w('storm')]);
        await s.addLinks([{ url: 'http://q.test/known', host: 'q.test', depth: 0 }]);
        const r = await s.recordSeeds(
          { provider: 'brave', terms: 'storm', results: ['http://q.test/known', 'http://q.test/new'], metaWordIds: [m!.id] },
          [{ url: 'http://q.test/known', host: 'q.test', depth: 0 }, { url: 'http://q.test/new', host: 'q.test', depth: 0 }],
        );
        assert.equal(r.newLinks, 1, 'a link already in the frontier is not added again');
        assert.equal((await s.linkByUrl('http://q.test/new'))!.queryId, r.queryId);
        assert.equal((await s.linkByUrl('http://q.test/known'))!.queryId, null, 'the first lineage of a link stays');
        assert.deepEqual((await s.queryMetaWords(r.queryId)).map((x) => x.word), ['storm']);
        assert.equal((await s.searchQuery(r.queryId))!.provider, 'brave');
      }));

    it('keeps robots rules per origin with their expiry, and gives them back expired too; keeps runs and settings', () =>
      withStore(b, async (s) => {
        await s.saveRobots('http://r.test', { groups: [{ agents: ['*'], disallow: ['/private'] }] }, 5000);
        assert.deepEqual(await s.loadRobots('http://r.test'), { robots: { groups: [{ agents: ['*'], disallow: ['/private'] }] }, expiresAt: 5000 });
        assert.equal(await s.loadRobots('http://none.test'), undefined);
        // RFC 9309 §2.3: another scheme or port of the host is another robots.txt.
        await s.saveRobots('http://r.test:8080', { all: 'allowed' }, 6000);
        await s.saveRobots('https://r.test', { all: 'disallowed' }, 7000);
        assert.deepEqual((await s.loadRobots('http://r.test:8080'))?.robots, { all: 'allowed' });
        assert.deepEqual((await s.loadRobots('https://r.test'))?.robots, { all: 'disallowed' });
        assert.deepEqual((await s.loadRobots('http://r.test'))?.robots, { groups: [{ agents: ['*'], disallow: ['/private'] }] });
        await s.saveRobots('http://r.test:8080', { all: 'read again' }, 8000);
        assert.deepEqual(await s.loadRobots('http://r.test:8080'), { robots: { all: 'read again' }, expiresAt: 8000 });
        await s.addLinks([{ url: 'http://r.test/', host: 'r.test', depth: 0 }]);
        const dom = (await s.domain('r.test'))!;
        await s.setNextFetchAt(dom.id, 777);
        assert.equal((await s.domain('r.test'))!.nextFetchAt, 777);

        const id = await s.startRun({ params: { activity: 'harvest', depth: 3 }, seed: 42, at: 10 });
        await s.endRun(id, { pages: 7 }, 20);
        assert.deepEqual(await s.run(id), { id, params: { activity: 'harvest', depth: 3 }, seed: 42, stats: { pages: 7 }, startedAt: 10, endedAt: 20 });

        assert.equal(await s.getSetting('proportion_of_crawler_node'), undefined);
        await s.setSetting('proportion_of_crawler_node', '0.3');
        await s.setSetting('proportion_of_crawler_node', '0.4');
        assert.equal(await s.getSetting('proportion_of_crawler_node'), '0.4');
      }));

    it('lets two stores on one database write the same links and nodes at once without duplicates', async () => {
      const db = b.fresh();
      const [s1, s2] = [await openStore(db.url, { thread: b.thread }), await openStore(db.url, { thread: b.thread })];
      try {
        const hosts = ['a.test', 'b.test', 'c.test', 'd.test'];
        const links = Array.from({ length: 400 }, (_, i) => ({ url: `http://${hosts[i % 4]}/p${i}`, host: hosts[i % 4]!, depth: 0 }));
        const batches = (off: number) => Array.from({ length: 20 }, (_, k) => links.slice(((k + off) % 20) * 20, ((k + off) % 20) * 20 + 20));
        const counts = await Promise.all([
          ...batches(0).map((bt) => s1.addLinks(bt)),
          ...batches(7).map((bt) => s2.addLinks(bt)),
        ]);
        assert.equal(counts.reduce((x, y) => x + y, 0), 400, 'each link counted new exactly once');
        assert.equal((await s1.domainsWithPending()).length, 4);

        // Both lease and complete every link; each page yields one shared and one own paragraph.
        const [meta] = await s1.ensureMetaWords([w('shared')]);
        const seen = new Map<number, string>();
        const work = async (s: Store, owner: string) => {
          for (;;) {
            const doms = await s.domainsWithPending();
            if (doms.length === 0) return;
            for (const d of doms) {
              const l = await s.leaseNextLink(d.id, owner, 60_000);
              if (!l) continue;
              assert.equal(seen.has(l.id), false, `link ${l.id} leased twice`);
              seen.set(l.id, owner);
              await s.completePage({
                linkId: l.id, owner, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
                nodes: [
                  { text: `Shared paragraph of ${l.host}.`, sentences: [], metaWordIds: [meta!.id] },
                  { text: `Own paragraph of ${l.url}.`, sentences: [], metaWordIds: [meta!.id] },
                ],
              });
            }
          }
        };
        await Promise.all([work(s1, 'one'), work(s2, 'two'), work(s1, 'three'), work(s2, 'four')]);
        assert.equal(seen.size, 400);
        const nodes = await s1.nodes({ origin: 'crawler' });
        assert.equal(nodes.length, 404, '4 shared + 400 own paragraphs, no duplicates');
        assert.equal(new Set(nodes.map((n) => n.text)).size, 404);
        for (const h of hosts) {
          const d = (await s2.domain(h))!;
          assert.deepEqual([d.pages, d.nodes, d.score], [100, 200, 101], `counters of ${h}`);
        }
      } finally {
        await s1.close();
        await s2.close();
        await db.cleanup();
      }
    });
  });
}
