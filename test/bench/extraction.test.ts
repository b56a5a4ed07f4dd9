import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreSets, splitHalves } from '../../bench/extraction.js';

const page = (id: string, truth: string) => ({ id, html: new TextEncoder().encode(truth), truth });

test('the halves alternate over the sorted ids, whatever order the pages come in', () => {
  const ids = ['f3', '0a', 'b7', '5c', '9e'];
  const { A, B } = splitHalves(ids.map((id) => ({ id })));
  assert.deepEqual(A.map((p) => p.id), ['0a', '9e', 'f3']);
  assert.deepEqual(B.map((p) => p.id), ['5c', 'b7']);
  assert.deepEqual(splitHalves([...ids].reverse().map((id) => ({ id }))), { A, B });
});

test('scoreSets scores every set and each page, extracting a page once', () => {
  const right = page('a1', 'the cat sat on the mat all day long');
  const missed = page('b2', 'a story nobody extracted at all today');
  const other = page('r1', 'one two three four five');
  const seen: string[] = [];
  const extract = (html: Uint8Array) => {
    const text = new TextDecoder().decode(html);
    seen.push(text);
    return text.startsWith('a story') ? '' : text;
  };
  const s = scoreSets(extract, { A: [right], B: [missed], dev: [right, missed], readability: [other] });
  assert.equal(seen.length, 3);
  assert.equal(s.A.score.f1, 1);
  assert.equal(s.B.score.f1, 0);
  assert.equal(s.dev.score.precision, 1);
  assert.equal(s.dev.score.recall, 0.5);
  assert.deepEqual(s.B.pages, [{ id: 'b2', precision: 0, recall: 0, f1: 0, truthWords: 7, givenWords: 0 }]);
  assert.equal(s.readability.pages[0]!.f1, 1);
});
