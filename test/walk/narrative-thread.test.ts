import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { narrativeAction, pageOfFetch, type MetaContext, type NarrativeOptions, type NarrativePage } from '../../src/walk/actions/narrative.js';
import { NarrativeThread } from '../../src/walk/actions/narrative-thread.js';
import type { FetchedPage } from '../../src/walk/fetch-step.js';
import { decodeHtml } from '../../src/html/decode.js';
import { buildProfiles, corpusStats } from '../../src/text/profile.js';
import { contentStems } from '../../src/text/relevance.js';

/*
 * The action on its thread answers what it answers on the main thread (harvest's e2e test runs a
 * whole crawl both ways); here, what the crossing could lose: topics sent once and changed, a
 * page that throws, a thread that dies.
 */

const PROSE = 'The lamp in the tower had burned for forty years, and on the night of the storm it was the only thing that the sailors could see from the rocks.';
const ABOUT = 'All night the keeper kept the great lamp turning over the black water, and the clockwork never once stopped.';
const NETS = '“Will she come back?” I asked my father, but he did not answer me and went on mending the nets by the fire.';

function page(body: string, headers: Record<string, string> = {}): NarrativePage {
  return { finalUrl: 'http://sea.test/a.html', status: 200, headers, truncated: false, text: `<!doctype html><html><head><title>Sea</title></head><body>${body}</body></html>` };
}

/** Profiles learned from three author nodes: lighthouse (20) and keeper (21), train (22), nets (23). */
function profiles(): NonNullable<MetaContext['topics']> {
  const author = [
    { text: 'The keeper climbed the hundred steps of the lighthouse. Every night he wound the clockwork that turned the great lamp over the black sea.', meta: [{ word: 'lighthouse', stem: 'lighthous' }, { word: 'keeper', stem: 'keeper' }] },
    { text: 'The night train left the station eleven minutes late.', meta: [{ word: 'train', stem: 'train' }] },
    { text: 'The fishermen mended their nets by the fire while the father said nothing to his son.', meta: [{ word: 'nets', stem: 'net' }] },
  ];
  const words = author.flatMap((a) => a.meta);
  return buildProfiles(words, author, corpusStats(author.map((a) => contentStems(a.text)))).map((profile, i) => ({ id: 20 + i, profile }));
}

const OPTS: NarrativeOptions = { robotsToken: 'anwc', order: 'relevance' };
const LINEAGE = { metaWordIds: [7, 9], metaStems: ['storm', 'lamp'] };

test('the thread answers each page as the main thread does, with the topics of each call, sent once and again when they change', async () => {
  const [lighthouse, , , nets] = profiles().map((t) => [t]);
  const calls: [NarrativePage, MetaContext, NarrativeOptions][] = [
    [page(`<p>${PROSE}</p><p>${ABOUT}</p><a href="/b.html">the storm lamp</a><a href="/c.html">more</a>`), { ...LINEAGE, topics: lighthouse }, OPTS],
    [page(`<p>${ABOUT}</p><p>${NETS}</p>`), { ...LINEAGE, topics: lighthouse }, OPTS],
    [page(`<p>${ABOUT}</p><p>${NETS}</p>`), { ...LINEAGE, topics: nets }, OPTS],
    [page(`<p>${ABOUT}</p><p>${NETS}</p>`), LINEAGE, { ...OPTS, keep: 'drop' }],
    [page(`<p>${PROSE}</p>`, { 'x-robots-tag': 'noindex' }), LINEAGE, OPTS],
  ];
  const thread = new NarrativeThread();
  try {
    const [first, ...rest] = calls.map(([p, m, o]) => thread.act(p, m, o));
    const inline = calls.map(([p, m, o]) => narrativeAction(p, m, o));
    assert.deepEqual(await first, inline[0]);
    assert.deepEqual(await Promise.all(rest), inline.slice(1));
    assert.deepEqual(inline[1]!.nodes.map((n) => n.metaWordIds), [[20, 9], []], 'lighthouse, by its profile');
    assert.deepEqual(inline[2]!.nodes.map((n) => n.metaWordIds), [[9], [23]], 'nets, by the other profile');
    assert.equal(inline[4]!.outcome.kind, 'noindex');
    // The next turn, after the answers: the thread still holds the last topics sent.
    assert.deepEqual(await thread.act(...calls[2]!), inline[2]);
  } finally {
    await thread.close();
  }
});

test('a page whose action throws fails alone, with the action\'s message', async () => {
  const thread = new NarrativeThread();
  try {
    const bad = thread.act(page(`<p>${PROSE}</p>`), LINEAGE, { ...OPTS, heuristics: { stopWords: 5 as unknown as ReadonlySet<string> } });
    const good = thread.act(page(`<p>${PROSE}</p>`), LINEAGE, OPTS);
    await assert.rejects(bad, /^Error: invalid heuristic option stopWords$/);
    assert.equal((await good).nodes.length, 1);
  } finally {
    await thread.close();
  }
});

test('a thread that dies fails the pages waiting on it, and the next page gets a new thread', async () => {
  let started = 0;
  const thread = new NarrativeThread(() => {
    started++;
    return started === 1
      ? new Worker("require('node:worker_threads').parentPort.once('message', () => process.exit(7));", { eval: true })
      : new Worker(new URL('../../src/walk/actions/narrative-worker.js', import.meta.url));
  });
  try {
    const p = page(`<p>${ABOUT}</p>`);
    const meta = { ...LINEAGE, topics: profiles().slice(0, 1) };
    await assert.rejects(Promise.all([thread.act(p, meta, OPTS), thread.act(p, meta, OPTS)]), /^Error: the page-reading thread stopped \(exit code 7\)$/);
    const inline = narrativeAction(p, meta, OPTS);
    assert.deepEqual(inline.nodes[0]!.metaWordIds, [20, 9]);
    assert.deepEqual(await thread.act(p, meta, OPTS), inline, 'the new thread is sent the topics the dead one had');
    assert.equal(started, 2);
  } finally {
    await thread.close();
  }
});

test('closing the thread fails the pages still waiting on it', async () => {
  const thread = new NarrativeThread();
  const failed = assert.rejects(thread.act(page(`<p>${PROSE}</p>`), LINEAGE, OPTS), /^Error: the page-reading thread was closed$/);
  await thread.close();
  await failed;
});

test('options that cannot cross to the thread fail their pages, and the thread goes on', async () => {
  const thread = new NarrativeThread();
  try {
    const uncloneable = { ...OPTS, heuristics: { stopWords: (() => true) as unknown as ReadonlySet<string> } };
    await assert.rejects(thread.act(page(`<p>${PROSE}</p>`), LINEAGE, uncloneable), (e: unknown) => (e as Error).name === 'DataCloneError');
    assert.equal((await thread.act(page(`<p>${PROSE}</p>`), LINEAGE, OPTS)).nodes.length, 1);
  } finally {
    await thread.close();
  }
});

/** A page as the fetch step gives it, whose text must not be made on this thread: the thread decodes its bytes. */
function fetched(body: Uint8Array, contentType: string | null): FetchedPage {
  return {
    url: 'http://sea.test/a.html', finalUrl: 'http://sea.test/a.html', status: 200, headers: {}, body, contentType, truncated: false,
    method: 'GET', requestHeaders: {},
    get text(): string {
      throw new Error('the text was made on the main thread');
    },
  };
}

test('a fetched page crosses as its bytes and is read as its decoded text is, in the charset its type or its meta gives', async () => {
  const html = (charset: string) => `<!doctype html><html><head>${charset}<title>Sea</title><script>var storm = 1;</script></head><body><p>${NETS}</p><p>Caf\u00e9 ${PROSE}</p></body></html>`;
  const latin1 = (charset: string) => Buffer.from(html(charset).replace(/[\u201c\u201d]/g, '"'), 'latin1');
  const pages: [Uint8Array, string | null, string][] = [
    [Buffer.from(html(''), 'utf8'), 'text/html; charset=utf-8', 'Caf\u00e9'],
    [Buffer.from(html(''), 'utf8'), null, 'Caf\u00e9'],
    [latin1('<meta charset="windows-1252">'), 'text/html', 'Caf\u00e9'],
    // Byte E9 is ι in ISO-8859-7: only the type says so, where a look at the bytes would say windows-1252.
    [latin1(''), 'text/html; charset=iso-8859-7', 'Caf\u03b9'],
  ];
  const thread = new NarrativeThread();
  try {
    for (const [bytes, type, word] of pages) {
      const inline = narrativeAction({ finalUrl: 'http://sea.test/a.html', status: 200, headers: {}, truncated: false, text: decodeHtml(bytes, type).text }, LINEAGE, OPTS);
      assert.equal(inline.nodes.length, 2);
      assert.ok(inline.nodes[1]!.text.startsWith(`${word} `), `${type}: ${inline.nodes[1]!.text.slice(0, 8)}`);
      assert.deepEqual(await thread.act(pageOfFetch(fetched(bytes, type)), LINEAGE, OPTS), inline, String(type));
      assert.deepEqual(narrativeAction(pageOfFetch(fetched(bytes, type)), LINEAGE, OPTS), inline, `${type}, on this thread`);
    }
  } finally {
    await thread.close();
  }
});
