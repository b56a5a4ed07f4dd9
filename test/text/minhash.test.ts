import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { BANDS, bandKeys, jaccard, jaccardIfNear, NEAR_COPY, shingleHash, shingleSet, toShingles } from '../../src/text/minhash.js';
import { tokenKey, words } from '../../src/text/tokenize.js';
import { needsShared } from '../support/shared.js';
import { bookParagraphs, CHICKENS, SHERLOCK, TIME_MACHINE } from './corpus.js';

const STORY = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const sh = (t: string) => shingleSet(words(t));

/** Jaccard the plain way, on Sets: the reference. */
function setJaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const both = [...a].filter((x) => b.has(x)).length;
  return both / (a.size + b.size - both);
}

test('shingles are word 3-grams, case and punctuation ignored; a short text is one shingle', () => {
  assert.deepEqual([...shingleSet(['The', 'lamp', 'was', 'lit'])], ['the lamp was', 'lamp was lit'].map(shingleHash).sort((x, y) => x - y));
  assert.deepEqual([...sh('Lamp, LIT.')], [shingleHash('lamp lit')]);
  assert.equal(shingleSet([]).length, 0);
  assert.deepEqual([...sh('the tide came in and the tide came in and the tide went out')],
    [...new Set(['the tide came', 'tide came in', 'came in and', 'in and the', 'and the tide', 'tide went out', 'the tide went'].map(shingleHash))].sort((x, y) => x - y),
    'ascending, each shingle once');
  assert.deepEqual(sh('The “lamp” was lit!'), sh('the lamp was lit'));
});

test('jaccard of shingles is the Jaccard of the sets; with a size bound, the same wherever it reaches the threshold, else 0', () => {
  const rng = seedrandom('jaccard-bound');
  let near = 0;
  for (let round = 0; round < 5000; round++) {
    const universe = 1 + Math.floor(rng() * 60);
    const pick = (p: number) => new Set(Array.from({ length: universe }, (_, i) => i).filter(() => rng() < p));
    const [a, b] = [pick(rng()), pick(rng())];
    const at = [NEAR_COPY, rng()][round % 2]!;
    const exact = setJaccard(a, b);
    const got = jaccardIfNear(toShingles(a), toShingles(b), at);
    const pair = `${[...a]} / ${[...b]} at ${at}`;
    assert.equal(jaccard(toShingles(a), toShingles(b)), exact, pair);
    if (exact >= at) {
      near++;
      assert.equal(got, exact, pair);
    } else {
      assert.ok(got < at && (got === 0 || got === exact), pair);
    }
  }
  assert.ok(near > 500, `pairs that reach the threshold: ${near}`);
});

test('jaccard is shared over all', () => {
  assert.equal(jaccard(toShingles([3, 1, 2]), toShingles([4, 2, 3, 3])), 2 / 4);
  assert.equal(jaccard(toShingles([]), toShingles([])), 1);
  assert.equal(jaccard(toShingles([1]), toShingles([])), 0);
  assert.deepEqual(toShingles([2 ** 32 - 1, 7, 7, 0, 2 ** 31]), Uint32Array.of(0, 7, 2 ** 31, 2 ** 32 - 1), 'ascending as unsigned numbers, each once');
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
  assert.deepEqual(bandKeys(toShingles([])), []);
});

test('band keys are a stored format: a text has the keys every earlier version gave it', () => {
  // Stores keep the keys of every node they hold; new keys for the same text would hide its copies.
  assert.deepEqual(bandKeys(sh(STORY)), [
    2461292891, 74730347, 3228598815, 864249622, 1469194475, 57277478, 3251421142, 1835655879,
    816329454, 3520983896, 382061983, 464928075, 1192939923, 3875168172, 1922687792, 1379178315,
  ]);
  assert.deepEqual(bandKeys(sh('Lamp lit')), [
    3249196058, 3428451750, 144236739, 2798568270, 1315558363, 127386794, 1107935890, 2676022216,
    1417839856, 4114299833, 2487525544, 3294626831, 929546659, 1187826424, 2977229126, 3385183167,
  ]);
});

/** The shingles as strings, as they were kept before they were hashed: the reference. */
function stringShingles(text: string): Set<string> {
  const keys = words(text).map(tokenKey);
  if (keys.length < 3) return new Set(keys.length === 0 ? [] : [keys.join(' ')]);
  return new Set(keys.slice(2).map((k, i) => `${keys[i]} ${keys[i + 1]} ${k}`));
}

describe('hashed shingles decide as the strings did', () => {
  const SHARED = needsShared('corpus');
  it('on every paragraph of three corpus books, beside the next one and beside itself with a word changed', { skip: SHARED }, () => {
    const paragraphs = [TIME_MACHINE, SHERLOCK, CHICKENS].flatMap(bookParagraphs).filter((p) => words(p).length > 0);
    assert.ok(paragraphs.length > 3000, `${paragraphs.length} paragraphs`);
    for (const [i, p] of paragraphs.entries()) {
      const next = paragraphs[(i + 1) % paragraphs.length]!;
      const edited = p.replace(/\b\w+\b/, 'lighthouse');
      for (const other of [next, edited]) {
        assert.equal(jaccard(sh(p), sh(other)), setJaccard(stringShingles(p), stringShingles(other)), `${p}\n${other}`);
      }
      assert.deepEqual(bandKeys(sh(p)), bandKeys(toShingles([...stringShingles(p)].map(shingleHash))));
    }
  });
});
