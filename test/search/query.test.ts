import { test } from 'node:test';
import assert from 'node:assert/strict';
import { metaSetKey, normalizeMetaSet, queryText, widenings, wordWeights } from '../../src/search/index.js';

test('query: the meta words ANDed, multi-word words quoted, operators neutralised', () => {
  assert.equal(queryText(['incorrigible', 'wake', 'refrain', 'halt', 'June', 'begin']), 'incorrigible wake refrain halt June begin');
  assert.equal(queryText(['lighthouse  keeper', 'sea']), '"lighthouse keeper" sea');
  assert.equal(queryText(['-storm', '"quoted"', 'OR', 'tide']), 'storm quoted "OR" tide');
  assert.equal(queryText([' sea ', 'Sea', '']), 'sea');
});

test('query: a meta set is the same in any order or case', () => {
  assert.equal(metaSetKey(['Sea', 'storm']), metaSetKey(['storm', 'sea', 'SEA']));
  assert.notEqual(metaSetKey(['sea']), metaSetKey(['sea', 'storm']));
  assert.deepEqual(normalizeMetaSet(['a', ' A ', 'b  c']), ['a', 'b c']);
});

test('query: widening drops the word the fewest meta sets hold, ties the last written', () => {
  const weight = wordWeights([
    ['sea', 'storm', 'june'],
    ['sea', 'storm'],
    ['sea', 'harbour'],
  ]);
  assert.equal(weight('Sea'), 3);
  assert.deepEqual(widenings(['june', 'sea', 'storm'], weight), [['sea', 'storm'], ['sea']]);
  // Equal weights: the word written last goes first.
  assert.deepEqual(widenings(['a', 'b', 'c'], () => 1), [['a', 'b'], ['a']]);
  assert.deepEqual(widenings(['alone'], weight), []);
});
