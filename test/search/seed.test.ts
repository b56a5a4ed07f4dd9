import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { stem } from '../../src/text/stem.js';
import { createProvider, SearchQuotaError } from '../../src/search/index.js';
import { ledgerKey, seed, type SeedEvent } from '../../src/search/seed.js';
import { sqliteDb, type TestDb } from '../support/db.js';
import { corpus, startStandin, STANDIN_KEY, type Standin, type StandinDoc } from '../support/search-standins.js';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freshStore(): Promise<{ store: Store; db: TestDb }> {
  const db = sqliteDb();
  const store = await openStore(db.url);
  cleanups.push(() => db.cleanup(), () => store.close());
  return { store, db };
}

async function standin(api: Parameters<typeof startStandin>[0], docs: StandinDoc[], opts: Parameters<typeof startStandin>[2] = {}): Promise<Standin> {
  const s = await startStandin(api, docs, opts);
  cleanups.push(() => s.close());
  return s;
}

/** Author nodes as `anwc import` stores them: one markup file, one node per meta set. */
async function importNodes(store: Store, path: string, sets: string[][], version = 'v1'): Promise<void> {
  await store.replaceMarkupFile({
    path,
    contentHash: `${path}:${version}`,
    sections: [{
      name: null,
      attributes: {},
      nodes: sets.map((words, i) => ({
        text: `Node ${i} of ${version}.`,
        sentences: [`Node ${i} of ${version}.`],
        metaWords: words.map((word) => ({ word, stem: stem(word) })),
      })),
    }],
  });
}

const DOCS: StandinDoc[] = [
  ...corpus(6, 'sea storm', 'storm.example'),
  ...corpus(4, 'whale ocean', 'whale.example'),
  { url: 'https://june.example/one', title: 'June gale', text: 'sea storm in june' },
  ...corpus(3, 'lighthouse sea', 'light.example'),
];

test('seed: one AND query per distinct meta set, URLs stored in the frontier tied to their query', async () => {
  const { store } = await freshStore();
  await importNodes(store, '/story/a.ane', [['sea', 'storm'], ['Storm', 'seas'], ['whale']]);
  const s = await standin('wikipedia', DOCS);
  const events: SeedEvent[] = [];
  const provider = createProvider('wikipedia', { endpoint: s.url });
  const summary = await seed({ provider, store, perQuery: 3, onEvent: (e) => events.push(e) });

  // "sea, storm" and "Storm, seas" share stems: one meta set, one query.
  assert.deepEqual(s.queries(), ['sea storm', 'whale']);
  assert.equal(summary.metaSets, 2);
  assert.equal(summary.asked, 2);
  assert.equal(summary.queries, 2);
  assert.equal(summary.urls, 6);
  assert.equal(summary.newLinks, 6);
  assert.equal(summary.stoppedBy, undefined);
  assert.deepEqual(
    events.filter((e) => e.type === 'query').map((e) => e.type === 'query' && [e.index, e.total, e.terms, e.urls]),
    [[1, 2, 'sea storm', 3], [2, 2, 'whale', 3]],
  );

  const link = await store.linkByUrl(`${s.url}wiki/Document_1_(storm.example)`);
  assert.ok(link);
  assert.equal(link.depth, 0);
  assert.equal(link.status, 'pending');
  assert.ok(link.queryId !== null);
  const words = await store.listMetaWords();
  assert.ok(words.every((w) => w.lastSearchedAt !== null), 'every meta word is marked searched');
});

test('seed: incremental — a second seed asks nothing; a new meta word is asked alone', async () => {
  const { store } = await freshStore();
  await importNodes(store, '/story/b.ane', [['sea', 'storm'], ['whale']]);
  const s = await standin('wikipedia', DOCS);
  const provider = createProvider('wikipedia', { endpoint: s.url });
  await seed({ provider, store, perQuery: 2 });
  const before = s.requests.length;

  const again = await seed({ provider, store, perQuery: 2 });
  assert.equal(s.requests.length, before, 'no request on a second seed');
  assert.equal(again.asked, 0);
  assert.equal(again.upToDate, 2);

  // The author adds a node with one new word: only that meta set is asked.
  await importNodes(store, '/story/b.ane', [['sea', 'storm'], ['whale'], ['lighthouse', 'sea']], 'v2');
  const third = await seed({ provider, store, perQuery: 2 });
  assert.deepEqual(s.queries().slice(before), ['sea lighthouse']);
  assert.equal(third.asked, 1);
  assert.equal(third.upToDate, 2);

  // --all asks every set again; the frontier does not take the same URL twice.
  const n = s.requests.length;
  const all = await seed({ provider, store, perQuery: 2, all: true });
  assert.equal(s.requests.length - n, 3);
  assert.equal(all.newLinks, 0);
});

test('seed: the searched ledger is per provider — another provider asks everything', async () => {
  const { store } = await freshStore();
  await importNodes(store, '/story/c.ane', [['whale']]);
  const wiki = await standin('wikipedia', DOCS);
  const searx = await standin('searxng', DOCS);
  await seed({ provider: createProvider('wikipedia', { endpoint: wiki.url }), store, perQuery: 2 });
  const r = await seed({ provider: createProvider('searxng', { endpoint: searx.url }), store, perQuery: 2 });
  assert.equal(r.asked, 1);
  assert.deepEqual(searx.queries(), ['whale']);
  assert.ok(await store.getSetting(ledgerKey('searxng')));
});

test('seed: a short AND query is widened by dropping the rarest word, stored as its own query', async () => {
  const { store } = await freshStore();
  // june is held by one meta set, sea and storm by two: june goes first.
  await importNodes(store, '/story/d.ane', [['june', 'sea', 'storm'], ['sea', 'storm']]);
  const s = await standin('wikipedia', DOCS);
  const events: SeedEvent[] = [];
  const summary = await seed({ provider: createProvider('wikipedia', { endpoint: s.url }), store, perQuery: 4, onEvent: (e) => events.push(e) });

  const asked = events.filter((e) => e.type === 'query').map((e) => e.type === 'query' && [e.index, e.terms, e.widened, e.urls, e.reused]);
  assert.deepEqual(asked, [
    [1, 'june sea storm', false, 1, false],
    [1, 'sea storm', true, 3, false],
    // The second set is the widened query already asked: answered without a request.
    [2, 'sea storm', false, 4, true],
  ]);
  assert.deepEqual(s.queries(), ['june sea storm', 'sea storm']);
  assert.equal(summary.queries, 3);
  assert.equal(summary.short, 0);
  // The widened query's seeds keep the lineage of their own stored query.
  const first = await store.linkByUrl(`${s.url}wiki/June_gale`);
  const widened = await store.linkByUrl(`${s.url}wiki/Document_1_(storm.example)`);
  assert.ok(first?.queryId && widened?.queryId);
  assert.notEqual(first.queryId, widened.queryId);
  assert.deepEqual((await store.queryMetaWords(first.queryId)).map((m) => m.word).sort(), ['june', 'sea', 'storm']);
  assert.deepEqual((await store.queryMetaWords(widened.queryId)).map((m) => m.word).sort(), ['sea', 'storm'], 'a widened query answers only the words it asked');
});

test('seed: widening stops at one word and reports the set as short', async () => {
  const { store } = await freshStore();
  await importNodes(store, '/story/e.ane', [['whale', 'unicorn']]);
  const s = await standin('wikipedia', DOCS);
  const summary = await seed({ provider: createProvider('wikipedia', { endpoint: s.url }), store, perQuery: 10 });
  assert.deepEqual(s.queries(), ['whale unicorn', 'whale']);
  assert.equal(summary.urls, 4);
  assert.equal(summary.short, 1);
});

test('seed: a quota error stops the run, keeps what was stored, and the next run asks the rest', async () => {
  const { store } = await freshStore();
  await importNodes(store, '/story/f.ane', [['sea', 'storm'], ['whale'], ['lighthouse']]);
  const s = await standin('google', DOCS, { fault: 'quota', faultAfter: 1 });
  const env = { GOOGLE_API_KEY: STANDIN_KEY, GOOGLE_CSE_ID: 'cx' };
  const provider = createProvider('google', { endpoint: s.url, env });
  const events: SeedEvent[] = [];
  const first = await seed({ provider, store, perQuery: 3, onEvent: (e) => events.push(e) });
  assert.ok(first.stoppedBy instanceof SearchQuotaError);
  assert.equal(first.asked, 1);
  assert.equal(first.urls, 3);
  const last = events.at(-1);
  assert.ok(last?.type === 'stopped');
  assert.equal(last.index, 2);
  assert.ok(await store.linkByUrl('https://storm.example/doc/1'), 'seeds found before the quota are kept');
  assert.equal(s.requests.length, 2, 'nothing asked after the quota error');

  s.options.fault = 'none';
  const second = await seed({ provider, store, perQuery: 3 });
  assert.equal(second.asked, 2);
  assert.deepEqual(s.queries().slice(2), ['whale', 'lighthouse']);
});

test('seed: the file provider seeds the sets its file names, with their meta words', async () => {
  const { store, db } = await freshStore();
  const file = join(dirname(db.url.slice('sqlite:'.length)), 'seeds.txt');
  await writeFile(file, '# meta: harbour, tide\nhttps://harbour.example/a\nhttps://harbour.example/b#x\n');
  const summary = await seed({ provider: createProvider('file', { file }), store, perQuery: Number.MAX_SAFE_INTEGER });
  assert.equal(summary.urls, 2);
  assert.equal(summary.short, 0);
  assert.deepEqual((await store.listMetaWords()).map((w) => w.word), ['harbour', 'tide']);
  const link = await store.linkByUrl('https://harbour.example/b');
  assert.ok(link?.queryId);
  assert.equal((await seed({ provider: createProvider('file', { file }), store, perQuery: 10 })).asked, 0);
});
