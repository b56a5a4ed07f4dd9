import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentStems, relevance, relevanceOfStems, stem } from '../../src/text/index.js';
import { TIME_MACHINE, paragraphsOf } from './corpus.js';
import { needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

test('contentStems drops stop words and stems the rest, in order', () => {
  assert.deepEqual(contentStems('The Time Traveller was running through the dimensions.'), ['time', 'travel', 'run', 'dimens']);
  assert.deepEqual(contentStems('The rest is silence.', new Set(['rest'])), ['the', 'is', 'silenc']);
});

test('relevance is the share of content words whose stem is a meta stem', () => {
  // content stems: time, travel, run, dimens → 2 of 4 are meta
  const text = 'The Time Traveller was running through the dimensions.';
  assert.equal(relevance(text, [stem('time'), stem('dimension')]), 2 / 4);
  assert.equal(relevance(text, [stem('travellers')]), 1 / 4);
  assert.equal(relevance(text, [stem('cheese')]), 0);
});

test('every occurrence counts; a meta stem given twice counts once', () => {
  const text = 'Time after time, the time machine ran.';
  // content: time, time, time, machin, ran (after and the are stop words)
  assert.equal(relevance(text, ['time']), 3 / 5);
  assert.equal(relevance(text, ['time', 'time']), 3 / 5);
  assert.equal(relevance(text, ['time', 'machin']), 4 / 5);
});

test('meta stems are compared case-blind', () => {
  assert.equal(relevance('Time machines.', ['TIME', 'Machin']), 1);
});

test('weights scale each meta stem, as in the W4 Salton search', () => {
  const text = 'Time after time, the time machine ran.';
  assert.equal(relevance(text, ['time', 'machin'], { weights: { machin: 2 } }), (3 + 2) / 5);
  assert.equal(relevanceOfStems(['a', 'b'], ['a'], { a: 0.5 }), 0.25);
});

test('no content words or no meta stems score 0, never NaN', () => {
  assert.equal(relevance('', ['time']), 0);
  assert.equal(relevance('The and of it.', []), 0);
  assert.equal(relevance('The and of.', ['the']), 0, 'only stop words: nothing to count');
  assert.equal(relevanceOfStems([], ['time']), 0);
});

test('a stop-word list can be given', () => {
  assert.equal(relevance('The time.', ['the'], { stopWords: new Set() }), 1 / 2);
});

test('a real paragraph scores higher for its own subject than for another', { skip: SHARED }, () => {
  const p = paragraphsOf(TIME_MACHINE, 'text', 'chapter-1.xhtml').find((t) => t.startsWith('“It is simply this.')) ?? '';
  const onTopic = relevance(p, ['dimension', 'space', 'length'].map(stem));
  const offTopic = relevance(p, ['cheese', 'railway', 'garden'].map(stem));
  assert.ok(onTopic > 0.1, String(onTopic));
  assert.equal(offTopic, 0);
});
