import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BANDS, bandKeys, jaccard, NEAR_COPY, shingleSet } from '../../src/text/minhash.js';
import { words } from '../../src/text/tokenize.js';

const STORY = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const sh = (t: string) => shingleSet(words(t));

test('shingles are word 3-grams, case and punctuation ignored; a short text is one shingle', () => {
  assert.deepEqual([...shingleSet(['The', 'lamp', 'was', 'lit'])], ['the lamp was', 'lamp was lit']);
  assert.deepEqual([...sh('Lamp, LIT.')], ['lamp lit']);
  assert.equal(shingleSet([]).size, 0);
  assert.deepEqual(sh('The “lamp” was lit!'), sh('the lamp was lit'));
});

test('jaccard is shared over all', () => {
  assert.equal(jaccard(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd'])), 2 / 4);
  assert.equal(jaccard(new Set(), new Set()), 1);
  assert.equal(jaccard(new Set(['a']), new Set()), 0);
});

test('one changed word keeps a paragraph a near-copy; another paragraph is far', () => {
  const edited = STORY.replace('at dusk', 'at night');
  assert.ok(jaccard(sh(STORY), sh(edited)) >= NEAR_COPY, `${jaccard(sh(STORY), sh(edited))}`);
  assert.ok(jaccard(sh(STORY), sh('My grandmother kept her recipes in a tin box on the shelf above the stove.')) < 0.1);
});

test('band keys: the same text the same keys; a near-copy shares some; an unrelated text none', () => {
  const keys = bandKeys(sh(STORY));
  assert.equal(keys.length, BANDS);
  assert.ok(keys.every((k) => Number.isInteger(k) && k >= 0 && k < 2 ** 32));
  assert.deepEqual(bandKeys(sh(STORY.toUpperCase())), keys);
  const shared = (a: number[], b: number[]) => a.filter((k, i) => b[i] === k).length;
  assert.ok(shared(keys, bandKeys(sh(STORY.replace('at dusk', 'at night')))) >= 1);
  assert.equal(shared(keys, bandKeys(sh('My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else could open it.'))), 0);
  assert.deepEqual(bandKeys(new Set()), []);
});
