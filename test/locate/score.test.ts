import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25, docStats, matched, salton, type DocStats } from '../../src/locate/score.js';
import { relevance, stem } from '../../src/text/index.js';

/** The locator's scores: Salton as the harvest's relevance computes it, BM25 by its formula's known properties. */

const Q = { words: ['Lisp', 'servers'], weights: [0.9, 0.5] };

describe('salton', () => {
  it('is the weighted share of the document\'s content words that are query stems, as the harvest\'s relevance has it', () => {
    const text = 'The Lisp server answers; a Lisp SERVER is small. Lisp servers run anywhere, and lisp is old.';
    const weights = { [stem('lisp')]: 0.9, [stem('server')]: 0.5 };
    assert.equal(salton(docStats(text, Q), Q), relevance(text, [stem('lisp'), stem('server')], { weights }));
    assert.ok(salton(docStats(text, Q), Q) > 0);
    assert.deepEqual(matched(docStats(text, Q), Q), ['Lisp', 'servers']);
  });

  it('is 0 for an empty document and for one without the words', () => {
    assert.equal(salton(docStats('', Q), Q), 0);
    assert.equal(salton(docStats('Nothing here is about the topic at all.', Q), Q), 0);
    assert.deepEqual(matched(docStats('Only Lisp.', Q), Q), ['Lisp']);
  });
});

describe('bm25', () => {
  const doc = (length: number, tf: number): DocStats => ({ length, tf: tf ? { [stem('lisp')]: tf } : {} });
  const one = { words: ['lisp'], weights: [] };

  it('matches the formula on a collection small enough to compute by hand: ln 2 for one match in one of two equal documents', () => {
    const [a, b] = bm25([doc(4, 1), doc(4, 0)], one);
    assert.ok(Math.abs(a! - Math.log(2)) < 1e-12, String(a));
    assert.equal(b, 0);
  });

  it('grows with the term\'s count, saturating; falls with the document\'s length; weighs rare terms above common ones', () => {
    const [t1, t2, t8] = bm25([doc(10, 1), doc(10, 2), doc(10, 8), doc(10, 0)], one);
    assert.ok(t2! > t1! && t8! > t2!);
    assert.ok(t8! - t2! < 6 * (t2! - t1!), 'saturation: six more occurrences add less than six times what one did');
    const [short, long] = bm25([doc(5, 2), doc(50, 2), doc(10, 0)], one);
    assert.ok(short! > long!);
    const rare = bm25([doc(10, 1), doc(10, 0), doc(10, 0), doc(10, 0)], one)[0]!;
    const common = bm25([doc(10, 1), doc(10, 1), doc(10, 1), doc(10, 0)], one)[0]!;
    assert.ok(rare > common);
  });

  it('scales with the word\'s weight', () => {
    const plain = bm25([doc(4, 1), doc(4, 0)], one)[0]!;
    const weighted = bm25([doc(4, 1), doc(4, 0)], { words: ['lisp'], weights: [0.5] })[0]!;
    assert.ok(Math.abs(weighted - plain / 2) < 1e-12);
  });
});
