import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentStems } from '../../src/text/relevance.js';
import { stem } from '../../src/text/stem.js';
import {
  buildProfiles, corpusStats, LITERAL_HEADING, LITERAL_TEXT, MIN_CONTEXT_TERMS, nodeVector, PROFILE_TERMS, topicEvidence, TOPIC_THRESHOLD, type ProfileSource, type TopicProfile,
} from '../../src/text/profile.js';

const meta = (...ws: string[]) => ws.map((word) => ({ word, stem: stem(word) }));

/** Two author nodes of a small story, and a third that shares only its everyday words. */
const SOURCES: ProfileSource[] = [
  {
    text: 'The keeper climbed the hundred steps of the lighthouse before the sun went down. Every night he wound the clockwork that turned the great lamp over the black sea.',
    meta: meta('lighthouse', 'keeper', 'sea'),
    context: ['harbour'],
  },
  {
    text: 'The night train left the station eleven minutes late. She stood on the platform with one suitcase and a ticket.',
    meta: meta('train', 'station'),
  },
  {
    text: 'The Time Traveller set the levers of his machine and the laboratory dissolved around him.',
    meta: meta('Baker Street', 'machine'),
  },
];

function profiles(): Map<string, TopicProfile> {
  const stats = corpusStats(SOURCES.map((s) => contentStems(s.text)));
  const built = buildProfiles(meta('lighthouse', 'keeper', 'sea', 'train', 'station', 'Baker Street', 'machine', 'python'), SOURCES, stats);
  return new Map(built.map((p) => [p.word, p]));
}

function evidence(text: string, word: string, headings = '') {
  const stems = contentStems(text);
  return topicEvidence(stems, nodeVector(stems), new Set(contentStems(headings)), profiles().get(word)!);
}

test('a profile is learned from the author nodes carrying the word and the words around it; the word itself is not among its terms', () => {
  const p = profiles().get('lighthouse')!;
  assert.equal(p.sources, 1);
  assert.ok(!('lighthous' in p.terms), 'the literal is weighed apart');
  for (const t of ['lamp', 'clockwork', 'keeper', 'sea', 'harbour']) assert.ok(p.terms[t]! > 0, t);
  assert.deepEqual(p.anchors, ['harbour', 'keeper', 'sea'], 'its fellow meta words and its section\'s name');
  assert.ok(p.terms.keeper! > p.terms.clockwork!, 'a fellow meta word counts more than a word of the text');
  const norm = Math.sqrt(Object.values(p.terms).reduce((a, w) => a + w * w, 0));
  assert.ok(Math.abs(norm - 1) < 1e-4, `unit length, not ${norm}`);
  assert.equal(profiles().get('python')!.sources, 0);
  assert.deepEqual(profiles().get('python')!.terms, {}, 'no author node: the literal alone links to it');
});

test('a stem in every document of the store weighs nothing: "night" is in two of three nodes, "clockwork" in one', () => {
  const everywhere: ProfileSource[] = SOURCES.map((s) => ({ ...s, text: `${s.text} Rain fell.` }));
  const stats = corpusStats(everywhere.map((s) => contentStems(s.text)));
  const [p] = buildProfiles(meta('lighthouse'), everywhere, stats);
  assert.ok(!('rain' in p!.terms) && !('fell' in p!.terms), 'in every document: no weight at all');
  assert.ok(p!.terms.clockwork! > p!.terms.night!);
});

test('the literal word alone passes the threshold; in the headings only it counts less, and needs a word the author put beside it', () => {
  const plain = evidence('We walked to the lighthouse.', 'lighthouse');
  assert.equal(plain.literal, 'text');
  assert.ok(plain.linked && plain.score >= LITERAL_TEXT && plain.score >= TOPIC_THRESHOLD);
  const headed = evidence('We walked along the cliff path to the sea in the rain.', 'lighthouse', 'The Lighthouse');
  assert.equal(headed.literal, 'heading');
  assert.ok(headed.linked && headed.score >= LITERAL_HEADING && headed.score < plain.score, JSON.stringify(headed));
  const banner = evidence('We walked along the cliff path in the rain.', 'lighthouse', 'The Lighthouse Journal');
  assert.equal(banner.literal, 'heading');
  assert.equal(banner.linked, false, 'a site\'s name on every page is not a topic by itself');
  assert.equal(evidence('We walked along the cliff path to the sea in the rain.', 'lighthouse').linked, false);
});

test('a paragraph about the topic that never says the word is linked by its profile, the shared terms named', () => {
  const e = evidence('All night the keeper kept the great lamp turning over the black water, and the clockwork never stopped.', 'lighthouse');
  assert.equal(e.literal, null);
  assert.ok(e.linked, JSON.stringify(e));
  assert.ok(e.score >= TOPIC_THRESHOLD && e.score === e.similarity);
  assert.ok(e.matched >= MIN_CONTEXT_TERMS);
  for (const t of ['keeper', 'lamp', 'clockwork']) assert.ok(e.terms.includes(t), `${t} in ${e.terms.join(', ')}`);
  const trains = evidence('The train was late again, and the station was cold.', 'lighthouse');
  assert.equal(trains.linked, false, 'a train paragraph is not about the lighthouse');
});

test('a few everyday words in common are chance: without a word the author put beside the meta word, no link', () => {
  // "great", "turned", "black", "went", "sun", "steps" are all in the lighthouse node, none is an anchor.
  const e = evidence('The sun went down behind the great black hills and the crowd turned home in steps.', 'lighthouse');
  assert.equal(e.literal, null);
  assert.ok(e.matched >= MIN_CONTEXT_TERMS, JSON.stringify(e));
  assert.equal(e.linked, false);
});

test('a phrase is its words in a row: "Baker Street" is not in "baker" and "street" apart', () => {
  assert.equal(evidence('He walked down Baker Street in the fog.', 'Baker Street').literal, 'text');
  assert.equal(evidence('The baker lived in a narrow street.', 'Baker Street').literal, null);
});

test('a node whose words name properties of every object (constructor, toString) is scored on its words like any other', () => {
  const plain = evidence('The keeper wound the clockwork that turned the lamp over the sea.', 'lighthouse');
  const odd = evidence('The keeper wound the clockwork that turned the lamp over the sea, constructor toString hasOwnProperty valueOf.', 'lighthouse');
  assert.ok(Number.isFinite(odd.score) && Number.isFinite(odd.similarity), `a number, not ${odd.score}`);
  assert.ok(odd.similarity > 0 && odd.similarity <= plain.similarity, 'the same shared terms, in a longer node');
  assert.deepEqual(odd.terms, plain.terms);
});

test('a profile holds only stems of what the author wrote: the node, its other meta words, its section\'s name', () => {
  const stats = corpusStats(SOURCES.map((s) => contentStems(s.text)));
  const [p] = buildProfiles(meta('station'), SOURCES, stats);
  const written = new Set([...contentStems(SOURCES[1]!.text), ...contentStems('train')]);
  assert.ok(Object.keys(p!.terms).length > 0);
  for (const t of Object.keys(p!.terms)) assert.ok(written.has(t), `${t} was not written under "station"`);
  assert.deepEqual(p!.anchors, ['train'], 'no section name: its fellow meta word only');
});

test('a fellow meta word in every document of the store is no anchor: it weighs nothing, so it cannot vouch for a link', () => {
  const everywhere: ProfileSource[] = SOURCES.map((s) => ({ ...s, text: `${s.text} The harbour.` }));
  const stats = corpusStats(everywhere.map((s) => contentStems(s.text)));
  const [p] = buildProfiles(meta('lighthouse'), everywhere, stats);
  assert.ok(!('harbour' in p!.terms));
  assert.deepEqual(p!.anchors, ['keeper', 'sea']);
});

test('a long author text keeps its PROFILE_TERMS heaviest terms: the words it repeats before those it says once', () => {
  const once = Array.from({ length: PROFILE_TERMS + 20 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
  const text = `${once.join(' ')} ${'tide '.repeat(5)}${'gull '.repeat(3)}`;
  const sources: ProfileSource[] = [{ text, meta: meta('coast') }, { text: 'An unrelated line.', meta: meta('other') }];
  const stats = corpusStats(sources.map((s) => contentStems(s.text)));
  const [p] = buildProfiles(meta('coast'), sources, stats);
  const terms = Object.entries(p!.terms);
  assert.equal(terms.length, PROFILE_TERMS);
  assert.ok(p!.terms.tide! > p!.terms.gull! && p!.terms.gull! > Math.max(...terms.filter(([t]) => t !== 'tide' && t !== 'gull').map(([, w]) => w)));
  // Among terms of equal weight the cut is by name, so a rebuild gives the same profile.
  const kept = terms.map(([t]) => t).filter((t) => t.startsWith('word')).sort();
  const all = [...new Set(contentStems(once.join(' ')))].sort();
  assert.deepEqual(kept, all.slice(0, PROFILE_TERMS - 2));
});

test('a node\'s vector weighs a repeated stem 1 + ln tf and has length 1', () => {
  const v = nodeVector(['lamp', 'lamp', 'lamp', 'sea']);
  const w = 1 + Math.log(3);
  const norm = Math.sqrt(w * w + 1);
  assert.ok(Math.abs(v.get('lamp')! - w / norm) < 1e-12, String(v.get('lamp')));
  assert.ok(Math.abs(v.get('sea')! - 1 / norm) < 1e-12, String(v.get('sea')));
  assert.equal(nodeVector([]).size, 0);
});

test('a phrase counts in the headings only when all its words are there', () => {
  assert.equal(evidence('He walked in the fog.', 'Baker Street', 'Baker Street at night').literal, 'heading');
  assert.equal(evidence('He walked in the fog.', 'Baker Street', 'The Street').literal, null);
  assert.equal(evidence('He walked in the fog.', 'Baker Street', 'The Baker').literal, null);
});

test('the evidence names at most eight shared terms, the largest shares first', () => {
  // Written so that the node's own order is not the order of the shares: the lightest term first, the heaviest last.
  const text = 'Every night the old man wound the clockwork, lit the lamp, climbed the hundred steps, watched the black water below the sun, and turned the great light toward the harbour, a keeper of the sea.';
  const e = evidence(text, 'lighthouse');
  assert.ok(e.matched > 8, JSON.stringify(e));
  assert.equal(e.terms.length, 8);
  // Every stem of this node is there once, so a term's share is its weight in the profile.
  const p = profiles().get('lighthouse')!;
  const weights = e.terms.map((t) => p.terms[t]!);
  assert.deepEqual(weights, [...weights].sort((a, b) => b - a), e.terms.join(', '));
  const heaviest = Object.keys(p.terms).filter((t) => contentStems(text).includes(t)).sort((a, b) => p.terms[b]! - p.terms[a]!)[0];
  assert.equal(e.terms[0], heaviest);
});

test('an anchor and enough shared terms still need the threshold: a long node that mentions them in passing is not linked', () => {
  const filler = 'Merchants argued about copper prices while farmers sold apples, cabbages, onions, carrots, turnips, barley, oats, honey, cheese, wool, leather, candles, rope, nails, timber, bricks, pottery, baskets, blankets, saddles, lanterns, kettles, shovels, ladders, buckets, spindles, bridles, hammers, chisels, sickles, spoons, ribbons, buttons, thimbles, needles, mittens, scarves and boots at the autumn fair beside the river mill';
  const e = evidence(`${filler}; a keeper mentioned the lamp and the clockwork.`, 'lighthouse');
  assert.equal(e.literal, null);
  assert.ok(e.matched >= MIN_CONTEXT_TERMS && e.terms.includes('keeper'), JSON.stringify(e));
  assert.ok(e.score > 0 && e.score < TOPIC_THRESHOLD, JSON.stringify(e));
  assert.equal(e.linked, false);
});

test('exactly MIN_CONTEXT_TERMS shared terms, an anchor among them, link a node that never says the word', () => {
  const e = evidence('The keeper trimmed the lamp and the clockwork.', 'lighthouse');
  assert.equal(e.literal, null);
  assert.equal(e.matched, MIN_CONTEXT_TERMS, JSON.stringify(e));
  assert.ok(e.score >= TOPIC_THRESHOLD, JSON.stringify(e));
  assert.equal(e.linked, true);
});

test('a relevance of exactly TOPIC_THRESHOLD links: the threshold is reached, not passed', () => {
  // Three shared terms, an anchor among them, each a third of a unit node: the cosine is 3 · w / √3.
  const w = TOPIC_THRESHOLD / Math.sqrt(3);
  const profile: TopicProfile = { word: 'lighthouse', stem: 'lighthous', literal: ['lighthous'], terms: { lamp: w, keeper: w, clockwork: w }, anchors: ['keeper'], sources: 1 };
  const stems = ['lamp', 'keeper', 'clockwork'];
  const e = topicEvidence(stems, nodeVector(stems), new Set(), profile);
  assert.equal(e.score, TOPIC_THRESHOLD);
  assert.equal(e.linked, true);
});
