import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeText, tokenize, tokenKey, words } from '../../src/text/index.js';
import { TIME_MACHINE, bookParagraphs } from './corpus.js';
import { needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

test('normalizeText collapses every kind of whitespace and drops invisible characters', () => {
  assert.equal(normalizeText('  Mr.\u00A0Holmes\u2009and\u202FWatson \n\t went '), 'Mr. Holmes and Watson went');
  assert.equal(normalizeText('way\u2060—marking'), 'way—marking');
  assert.equal(normalizeText('ex\u00ADample\u200B \uFEFFtext'), 'example text');
  assert.equal(normalizeText('that\u2060\u200A\u2060… very'), 'that … very');
  assert.equal(normalizeText('cafe\u0301'), 'café', 'combining accents compose (NFC)');
  assert.equal(normalizeText('\u00A0\u2060 '), '');
  assert.equal(normalizeText('\tone\ttwo\nthree  four\r\nfive\f'), 'one two three four five', 'ASCII text: each whitespace character or run, one space');
});

test('normalizeText is idempotent', () => {
  const once = normalizeText(' “Don’t\u2060—” he\u00A0said\u00AD…  ');
  assert.equal(normalizeText(once), once);
});

test('curly and straight apostrophes keep a word whole', () => {
  assert.deepEqual(words('Don’t stop, I’m here; don\'t go.'), ['Don’t', 'stop', 'I’m', 'here', "don't", 'go']);
  assert.deepEqual(tokenize('Don’t DON\'T'), ["don't", "don't"]);
  assert.equal(tokenKey('Rock’n’Roll'), "rock'n'roll");
  assert.deepEqual(['O\u02BCNeil', 'O\uFF07Neil', 'O’Neil', "O'Neil", 'ONeil'].map(tokenKey), ["o'neil", "o'neil", "o'neil", "o'neil", 'oneil']);
});

test('em and en dashes, ellipses and quotes separate words and are not words', () => {
  assert.deepEqual(words('this way⁠—marking the points⁠—as we sat'), ['this', 'way', 'marking', 'the', 'points', 'as', 'we', 'sat']);
  assert.deepEqual(words('pages 10–12…and then'), ['pages', '10', '12', 'and', 'then']);
  assert.deepEqual(words('“That,” said he; “that⁠ ⁠… very clear.”'), ['That', 'said', 'he', 'that', 'very', 'clear']);
  assert.deepEqual(words('— … “ ” ‘ ’ ( ) , .'), []);
});

test('word joiners, no-break spaces, soft hyphens and zero-width spaces are not separators', () => {
  assert.deepEqual(words('in\u00ADcandescent'), ['incandescent']);
  assert.deepEqual(words('Mr.\u00A0Holmes'), ['Mr', 'Holmes']);
  assert.deepEqual(words('super\u200Bcalifragilistic'), ['supercalifragilistic']);
  assert.deepEqual(words('word\u2060joiner'), ['wordjoiner']);
});

test('numbers are words, with their decimal and thousands separators', () => {
  assert.deepEqual(words('In 1895 it cost 3.50 or 1,000 pounds, on the 22nd.'), ['In', '1895', 'it', 'cost', '3.50', 'or', '1,000', 'pounds', 'on', 'the', '22nd']);
});

test('hyphenated compounds split into their parts', () => {
  assert.deepEqual(tokenize('after-dinner Four-Dimensioned'), ['after', 'dinner', 'four', 'dimensioned']);
});

test('scripts written without spaces are split into words', () => {
  assert.deepEqual(words('東京は日本の首都です。'), ['東京', 'は', '日本', 'の', '首都', 'です']);
  assert.ok(words('我们今天去公园。').length >= 3);
});

test('accented and non-Latin letters stay inside words; case is kept by words, folded by tokenize', () => {
  assert.deepEqual(words('Naïve Ζεύς Москва'), ['Naïve', 'Ζεύς', 'Москва']);
  assert.deepEqual(tokenize('Naïve Ζεύς Москва'), ['naïve', 'ζεύς', 'москва']);
});

test('empty and punctuation-only input give no words', () => {
  assert.deepEqual(tokenize(''), []);
  assert.deepEqual(tokenize('   \u00A0 '), []);
  assert.deepEqual(tokenize('#$%^&*'), []);
});

test('long text is segmented in pieces without losing or splitting a word', { skip: SHARED }, () => {
  const paragraphs = bookParagraphs(TIME_MACHINE).slice(0, 300);
  const joined = paragraphs.join('\u00A0');
  assert.ok(joined.length > 50_000);
  assert.deepEqual(words(joined), paragraphs.flatMap((p) => words(p)));
});

test('a word longer than a piece stays one word, never cut inside a surrogate pair', () => {
  assert.deepEqual(words('x'.repeat(3000) + '#'), ['x'.repeat(3000)]);
  assert.deepEqual(words('A ' + 'y'.repeat(1700) + ' b'), ['A', 'y'.repeat(1700), 'b']);
  // U+1D49C, a letter outside the BMP; the leading x puts the pairs at odd offsets, so a blind
  // cut every 512 code units would land between the halves of a pair
  const script = 'x' + '𝒜'.repeat(1500);
  assert.deepEqual(words(script), [script]);
});

test('a long run of Japanese without spaces gives the words of its sentences', () => {
  const sentence = '東京は日本の首都であり、多くの人々が毎日電車で通勤している。';
  const run = sentence.repeat(60);
  assert.ok(run.length > 1500 && !run.includes(' '));
  assert.deepEqual(words(run), Array.from({ length: 60 }, () => words(sentence)).flat());
});
