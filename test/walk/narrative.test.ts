import { test } from 'node:test';
import assert from 'node:assert/strict';
import { narrativeAction, xRobotsTag } from '../../src/walk/actions/narrative.js';
import { harvestReward, RELEVANCE_REWARD } from '../../src/harvest/harvest.js';
import { relevance } from '../../src/text/relevance.js';
import { bandKeys, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';
import type { FetchedPage } from '../../src/walk/fetch-step.js';
import { buildProfiles, corpusStats } from '../../src/text/profile.js';
import { contentStems } from '../../src/text/relevance.js';
import { MAX_ELEMENTS } from '../../src/html/limits.js';
import { describeOutcome } from '../../src/walk/outcome.js';

const PROSE =
  'The lamp in the tower had burned for forty years, and on the night of the storm it was the only thing that the sailors could see from the rocks.';
const PROSE2 = '“Will she come back?” I asked my father, but he did not answer me and went on mending the nets by the fire.';

function page(body: string, headers: Record<string, string> = {}): FetchedPage {
  return {
    url: 'http://sea.test/a.html',
    finalUrl: 'http://sea.test/a.html',
    status: 200,
    headers,
    truncated: false,
    body: new Uint8Array(),
    contentType: 'text/html',
    method: 'GET',
    requestHeaders: {},
    text: `<!doctype html><html><head><meta charset="utf-8">${body.includes('<head>') ? '' : ''}</head><body>${body}</body></html>`,
  };
}

const meta = { metaWordIds: [7, 9], metaStems: ['storm', 'lamp'] };
const OPTS = { robotsToken: 'anwc' };

test('accepted blocks become nodes with the lineage meta words; rejected ones are counted by rule', () => {
  const r = narrativeAction(
    page(`<p>Home | About | Contact</p><p>${PROSE}</p><p>${PROSE2}</p><p>© 2026 Harbour Tales</p>
          <a href="/b.html">next</a><a rel="nofollow" href="/c.html">login</a>`),
    meta,
    OPTS,
  );
  assert.equal(r.nodes.length, 2);
  assert.deepEqual(r.nodes[0]!.metaWordIds, [7, 9]);
  assert.equal(r.nodes[0]!.text, PROSE);
  assert.ok(r.nodes[0]!.relevance! > 0, 'the block mentions lamp and storm');
  assert.equal(r.nodes[0]!.relevance, relevance(PROSE, meta.metaStems), 'the score of the text module, from the words already split');
  assert.ok(r.nodes.every((n) => n.sentences === undefined), 'a paragraph goes without its sentences: an export splits its text');
  assert.equal(harvestReward(r.outcome, 1), 1, 'a page with a node earns its domain the reward');
  assert.equal(harvestReward(r.outcome, 3), 3);
  assert.deepEqual(r.links, ['http://sea.test/b.html'], 'rel=nofollow links are not followed');
  assert.ok(r.outcome.kind === 'harvested' && r.outcome.rejected['min-words']! >= 2);
});

test('a node carries the shingles of its text, those its band keys were made of: the near-copy check compares them without splitting the text again', () => {
  const QUAY = 'Twenty-one lanterns hung from the “old” quay’s iron hooks at 5:30 a.m., dripping, and the harbour-master counted them every morning.';
  const r = narrativeAction(page(`<p>${PROSE}</p><p>${PROSE2}</p><p>${QUAY}</p>`), meta, OPTS);
  assert.deepEqual(r.nodes.map((n) => n.text), [PROSE, PROSE2, QUAY]);
  for (const n of r.nodes) {
    assert.deepEqual(n.shingles, shingleSet(words(n.text)));
    assert.deepEqual(n.bands, bandKeys(n.shingles!));
  }
});

test('a node is linked only to the meta words it speaks of, weighted by their share of its words; the title and headings count as half a mention', () => {
  const r = narrativeAction(page(`<p>${PROSE}</p><p>${PROSE2}</p>`), meta, OPTS);
  assert.deepEqual(r.nodes.map((n) => n.metaWordIds), [[7, 9], []], 'the second paragraph speaks of neither storm nor lamp: lineage alone links nothing');
  const [w7, w9] = r.nodes[0]!.metaWeights!;
  assert.ok(w7! > 0 && w7 === w9, 'storm and lamp each once in the paragraph');
  const titled = narrativeAction(page(`<h2>The storm</h2><p>${PROSE2}</p>`), meta, OPTS);
  assert.deepEqual(titled.nodes[0]!.metaWordIds, [7], 'a heading about the storm links the page\'s paragraphs to storm');
  assert.ok(titled.nodes[0]!.metaWeights![0]! < w7!, 'less than a mention in the text');
  const doubled = narrativeAction(page(`<p>${PROSE} The storm, the storm.</p>`), meta, OPTS);
  assert.ok(doubled.nodes[0]!.metaWeights![0]! > doubled.nodes[0]!.metaWeights![1]!, 'storm three times weighs more than lamp once');
});

/** Profiles learned from one author node about a lighthouse (meta 20, 21) and one about a train (22). */
function topics() {
  const author = [
    { text: 'The keeper climbed the hundred steps of the lighthouse. Every night he wound the clockwork that turned the great lamp over the black sea.', meta: [{ word: 'lighthouse', stem: 'lighthous' }, { word: 'keeper', stem: 'keeper' }] },
    { text: 'The night train left the station eleven minutes late.', meta: [{ word: 'train', stem: 'train' }] },
  ];
  const words = [{ word: 'lighthouse', stem: 'lighthous' }, { word: 'keeper', stem: 'keeper' }, { word: 'train', stem: 'train' }];
  const built = buildProfiles(words, author, corpusStats(author.map((a) => contentStems(a.text))));
  return built.map((profile, i) => ({ id: 20 + i, profile }));
}

test('with topic profiles a node is linked to every meta word it is relevant to, lineage or not, weighted by its relevance, with the evidence', () => {
  const ABOUT = 'All night the keeper kept the great lamp turning over the black water, and the clockwork never once stopped.';
  const r = narrativeAction(page(`<p>${ABOUT}</p><p>${PROSE2}</p>`), { ...meta, topics: topics() }, OPTS);
  const [about, other] = r.nodes;
  assert.deepEqual(about!.metaWordIds, [20, 21, 9], 'lighthouse by its profile (the word is never said), keeper by its literal, and lamp, a lineage word without a profile, by its literal; not train');
  const e = about!.metaEvidence![0]!;
  assert.equal(e.literal, null);
  assert.ok(e.terms.includes('lamp') && e.terms.includes('clockwork'), e.terms.join(', '));
  assert.equal(about!.metaWeights![0], e.score);
  assert.equal(about!.metaEvidence![1]!.literal, 'text');
  assert.deepEqual(about!.metaEvidence![2], { score: 0.5, literal: 'text', similarity: 0, terms: [] });
  assert.ok(about!.metaWeights![1]! > about!.metaWeights![0]!, 'the literal word is the strongest evidence');
  assert.deepEqual(other!.metaWordIds, [], 'the nets by the fire are about none of them');
  assert.ok(r.outcome.kind === 'harvested' && r.outcome.onTopic === 1 && r.outcome.offTopic === 1);
  assert.equal(harvestReward(r.outcome, 'relevance'), 1, 'one node on the topic');
});

test('--keep drop: a paragraph relevant to no meta word is not kept, and counted', () => {
  const ABOUT = 'All night the keeper kept the great lamp turning over the black water, and the clockwork never once stopped.';
  const r = narrativeAction(page(`<p>${ABOUT}</p><p>${PROSE2}</p>`), { ...meta, topics: topics() }, { ...OPTS, keep: 'drop' });
  assert.deepEqual(r.nodes.map((n) => n.text), [ABOUT]);
  assert.ok(r.outcome.kind === 'harvested' && r.outcome.offTopic === 0 && r.outcome.offTopicDropped === 1 && r.outcome.nodes === 1);
  const kept = narrativeAction(page(`<p>${PROSE2}</p>`), { ...meta, topics: topics() }, OPTS);
  assert.equal(kept.nodes.length, 1, 'kept by default, as the thesis keeps every paragraph that passes');
});

test('--reward relevance: a page earns a point per node on the topic, a page with none costs a point; one reached from no query earns the full point', () => {
  const half = narrativeAction(page(`<p>${PROSE}</p><p>${PROSE2}</p>`), meta, OPTS);
  assert.ok(half.outcome.kind === 'harvested' && half.outcome.onTopic === 1);
  assert.equal(harvestReward(half.outcome, 'relevance'), 1, 'one of two nodes speaks of storm or lamp');
  assert.equal(harvestReward(half.outcome, 1), 1, 'the thesis reward does not look at the topic');
  const off = narrativeAction(page(`<p>${PROSE2}</p>`), meta, OPTS);
  assert.equal(harvestReward(off.outcome, 'relevance'), -1, 'text about something else costs a point');
  const unseeded = narrativeAction(page(`<p>${PROSE2}</p>`), { metaWordIds: [], metaStems: [] }, OPTS);
  assert.ok(unseeded.outcome.kind === 'harvested' && unseeded.outcome.onTopic === undefined);
  assert.equal(harvestReward(unseeded.outcome, 'relevance'), 1);
  const empty = narrativeAction(page('<p>Home | About</p>'), meta, OPTS);
  assert.equal(harvestReward(empty.outcome, 'relevance'), -1, 'no node on the topic: a point less');
  const unseededEmpty = narrativeAction(page('<p>Home | About</p>'), { metaWordIds: [], metaStems: [] }, OPTS);
  assert.equal(harvestReward(unseededEmpty.outcome, 'relevance'), 0, 'reached from no query and no node: as the thesis, nothing');
  assert.equal(harvestReward({ kind: 'http-error', status: 404 }, 'relevance'), 0, 'a page not fetched neither earns nor costs');
});

test('the topic rewards: the share of nodes on the topic, how many are, or the sum of their relevance', () => {
  const ABOUT = 'All night the keeper kept the great lamp turning over the black water, and the clockwork never once stopped.';
  const r = narrativeAction(page(`<p>${ABOUT}</p><p>${PROSE}</p><p>${PROSE2}</p>`), { ...meta, topics: topics() }, OPTS);
  assert.ok(r.outcome.kind === 'harvested' && r.outcome.nodes === 3 && r.outcome.onTopic === 2, JSON.stringify(r.outcome));
  const strongest = r.nodes.map((n) => Math.max(0, ...(n.metaWeights ?? [])));
  const sum = Math.round(strongest.reduce((a, b) => a + b, 0) * 1e4) / 1e4;
  assert.ok(sum > 0.5, `two nodes on the topic, each at least ${strongest.join(', ')}`);
  assert.equal(r.outcome.topicWeight, sum, 'each on-topic node counts its strongest link weight once');
  assert.equal(harvestReward(r.outcome, { topic: 'share' }), 2 / 3);
  assert.equal(harvestReward(r.outcome, { topic: 'nodes' }), 2);
  assert.equal(harvestReward(r.outcome, { topic: 'weight' }), sum);
  assert.deepEqual(RELEVANCE_REWARD, { topic: 'nodes', barren: 1 });
  assert.equal(harvestReward(r.outcome, 'relevance'), 2, '--reward relevance pays each node on the topic, not the share');
  assert.equal(harvestReward(r.outcome, 1), 1, 'the thesis reward does not look at the topic');
  const off = narrativeAction(page(`<p>${PROSE2}</p>`), { ...meta, topics: topics() }, OPTS);
  for (const topic of ['share', 'nodes', 'weight'] as const) assert.equal(harvestReward(off.outcome, { topic }), 0, `${topic}: text about something else earns nothing`);
  assert.equal(harvestReward(off.outcome, { topic: 'nodes', barren: 0.5 }), -0.5, 'and costs what a barren page is said to');
  assert.equal(harvestReward(off.outcome, 'relevance'), -1, '--reward relevance: a page with nothing on the topic costs its domain a point');
});

test('--order relevance: a link whose anchor names a meta word, then links of a page on the topic, come first', () => {
  const body = (p: string) => `${p}<a href="/plain.html">next page</a><a href="/storms.html">More storms</a>`;
  const onTopic = narrativeAction(page(body(`<p>${PROSE}</p>`)), meta, { ...OPTS, order: 'relevance' });
  assert.deepEqual(onTopic.links, [
    { url: 'http://sea.test/plain.html', priority: 1 },
    { url: 'http://sea.test/storms.html', priority: 2 },
  ], 'every node on the topic: the page gives each link 1, the anchor naming storms one more');
  const offTopic = narrativeAction(page(body(`<p>${PROSE2}</p>`)), meta, { ...OPTS, order: 'relevance' });
  assert.deepEqual(offTopic.links, [
    { url: 'http://sea.test/plain.html', priority: 0 },
    { url: 'http://sea.test/storms.html', priority: 1 },
  ]);
  assert.deepEqual(narrativeAction(page(body(`<p>${PROSE}</p>`)), meta, OPTS).links, ['http://sea.test/plain.html', 'http://sea.test/storms.html'],
    'in discovery order, links carry no priority');
});

test('a page without narrative gives no reward', () => {
  const r = narrativeAction(page('<p>Prices: £4.99 #1 [sale]</p>'), meta, OPTS);
  assert.equal(r.nodes.length, 0);
  assert.equal(harvestReward(r.outcome, 1), 0);
  assert.equal(r.outcome.kind, 'harvested');
});

test('a paragraph repeated on a page is one node', () => {
  const r = narrativeAction(page(`<p>${PROSE}</p><div><p>${PROSE}</p></div>`), meta, OPTS);
  assert.equal(r.nodes.length, 1);
});

test('meta robots noindex keeps nothing but follows links; nofollow follows none', () => {
  const noindex = narrativeAction(page(`<meta name="robots" content="noindex"><p>${PROSE}</p><a href="/x">x</a>`), meta, OPTS);
  assert.equal(noindex.outcome.kind, 'noindex');
  assert.equal(noindex.nodes.length, 0);
  assert.deepEqual(noindex.links, ['http://sea.test/x']);
  const nofollow = narrativeAction(page(`<meta name="robots" content="nofollow"><p>${PROSE}</p><a href="/x">x</a>`), meta, OPTS);
  assert.equal(nofollow.nodes.length, 1);
  assert.deepEqual(nofollow.links, []);
});

test('X-Robots-Tag: ours and unprefixed directives apply, other bots’ do not', () => {
  assert.deepEqual(xRobotsTag('noindex', 'anwc'), { noindex: true, nofollow: false });
  assert.deepEqual(xRobotsTag('none', 'anwc'), { noindex: true, nofollow: true });
  assert.deepEqual(xRobotsTag('googlebot: noindex', 'anwc'), { noindex: false, nofollow: false });
  assert.deepEqual(xRobotsTag('googlebot: nofollow, anwc: noindex', 'anwc'), { noindex: true, nofollow: false });
  assert.deepEqual(xRobotsTag('noarchive, unavailable_after: 25 Jun 2010 15:00:00 PST', 'anwc'), { noindex: false, nofollow: false });
  const r = narrativeAction(page(`<p>${PROSE}</p>`, { 'x-robots-tag': 'noindex' }), meta, OPTS);
  assert.equal(r.outcome.kind, 'noindex');
});

test('the robots token is the configured product token, in X-Robots-Tag and in meta robots', () => {
  assert.deepEqual(xRobotsTag('harbourbot: noindex', 'HarbourBot'), { noindex: true, nofollow: false });
  assert.deepEqual(xRobotsTag('anwc: noindex', 'harbourbot'), { noindex: false, nofollow: false }, 'the default token is not ours when another is set');
  const mine = { robotsToken: 'harbourbot' };
  const named = narrativeAction(page(`<meta name="HarbourBot" content="noindex, nofollow"><p>${PROSE}</p><a href="/x">x</a>`), meta, mine);
  assert.equal(named.outcome.kind, 'noindex');
  assert.deepEqual(named.links, []);
  const other = narrativeAction(page(`<meta name="anwc" content="noindex"><p>${PROSE}</p>`), meta, mine);
  assert.equal(other.outcome.kind, 'harvested', 'a meta tag for another crawler is not ours');
  const header = narrativeAction(page(`<p>${PROSE}</p>`, { 'x-robots-tag': 'harbourbot: noindex' }), meta, mine);
  assert.equal(header.outcome.kind, 'noindex');
});

test('a page past the tree\'s element cap keeps the nodes before the cut and says it was read in part', () => {
  const whole = narrativeAction(page(`<p>${PROSE}</p><ul>${'<li>x</li>'.repeat(100)}</ul><p>${PROSE2}</p>`), meta, OPTS);
  assert.equal(whole.outcome.kind === 'harvested' && whole.outcome.truncated, undefined);
  const r = narrativeAction(page(`<p>${PROSE}</p><ul>${'<li>x</li>'.repeat(MAX_ELEMENTS)}</ul><p>${PROSE2}</p>`), meta, OPTS);
  assert.deepEqual(r.nodes.map((n) => n.text), [PROSE]);
  assert.ok(r.outcome.kind === 'harvested' && r.outcome.truncated);
  assert.match(describeOutcome(r.outcome), /read only in part .*50,000 elements/);
});
