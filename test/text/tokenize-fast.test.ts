import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import seedrandom from 'seedrandom';
import { normalizeText, words } from '../../src/text/index.js';
import { segmentedWords } from '../../src/text/tokenize.js';
import { needsShared, sharedPath } from '../support/shared.js';
import { bookParagraphs, CHICKENS, SHERLOCK, TIME_MACHINE } from './corpus.js';

/**
 * words() scans Latin text itself and leaves every other text to Intl.Segmenter (issue: speed);
 * the two must give the same words. Held to it on every paragraph of the corpus books and of the
 * extraction benchmark's pages, and on random text of the scan's alphabet, which the corpus alone
 * would not stress (digits between commas, colons between letters, quotes next to dots).
 */

const reference = (text: string) => segmentedWords(normalizeText(text));

/** The characters the scan takes, weighted to the places its rules decide. */
const ALPHABET = "aZé9 0.,;:'‘’“”–—…-!?()\"/\nÀÿ×÷\u00A0xQ1«»©®™€£¢¥°±§¶•жЯёЂӿ";

describe('words(): the Latin scan gives the segmenter\'s words', () => {
  it('on random text of its alphabet', () => {
    const rng = seedrandom('tokenize-fast');
    for (let k = 0; k < 50_000; k++) {
      let s = '';
      for (let i = 1 + Math.floor(rng() * 12); i > 0; i--) s += ALPHABET[Math.floor(rng() * ALPHABET.length)];
      assert.deepEqual(words(s), reference(s), JSON.stringify(s));
    }
  });

  it('on the cases its rules name', () => {
    const cases: [string, string[]][] = [
      ['a:b a.b a\'b a‘b a’b', ['a:b', 'a.b', "a'b", 'a‘b', 'a’b']],
      ['1,000 1;2 1.5 1\'5 1:5', ['1,000', '1;2', '1.5', "1'5", '1', '5']],
      ['a.1 1.a a..b e.g. U.S.A. \'tis o\'clock.', ['a', '1', '1', 'a', 'a', 'b', 'e.g', 'U.S.A', 'tis', "o'clock"]],
      ['naïve café × 3÷4', ['naïve', 'café', '3', '4']],
    ];
    for (const [text, expected] of cases) {
      assert.deepEqual(words(text), expected, text);
      assert.deepEqual(reference(text), expected, `the segmenter, on ${text}`);
    }
  });

  it('leaves other scripts and the unplain Latin-1 signs to the segmenter', () => {
    for (const text of ['東京は日本の首都です', 'снег идёт', 'Ѐ҂҃ѣ҈', 'a_b __ _', 'x·y', '½ ² µm ª']) assert.deepEqual(words(text), reference(text), text);
  });

  const SHARED = needsShared('corpus', 'data/extraction');
  it('on every paragraph of the corpus books and of the extraction pages', { skip: SHARED }, () => {
    const paragraphs = [TIME_MACHINE, SHERLOCK, CHICKENS].flatMap(bookParagraphs);
    const html = join(sharedPath('data', 'extraction'), 'html');
    for (const f of readdirSync(html)) {
      const page = readFileSync(join(html, f), 'utf8');
      for (const m of page.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)) paragraphs.push((m[1] ?? '').replace(/<[^>]+>/g, ' '));
    }
    let latin = 0;
    for (const p of paragraphs) {
      assert.deepEqual(words(p), reference(p), p.slice(0, 200));
      if (/^[\x20-\x5E\x60-\x7E\u00A0\u00C0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2026\s]*$/.test(normalizeText(p))) latin++;
    }
    assert.ok(paragraphs.length > 3000, `${paragraphs.length} paragraphs`);
    assert.ok(latin / paragraphs.length > 0.8, `the scan took ${latin} of ${paragraphs.length}`);
  });
});
