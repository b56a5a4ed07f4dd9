import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_STOP_WORDS, evaluateBlock, tokenize } from '../../src/text/index.js';
import { detectLanguage, stopWordRatioFor, TYPICAL_STOP_WORD_SHARE } from '../../src/text/language.js';
import { ISO_STOP_WORD_LANGUAGES, isoStopWords } from '../../src/text/stopwords.js';

const OTHERS = new Map(ISO_STOP_WORD_LANGUAGES.map((l) => [l, isoStopWords(l)]));
const detect = (text: string) => detectLanguage(tokenize(text), DEFAULT_STOP_WORDS, OTHERS);

const ENGLISH = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const PORTUGUESE = 'O faroleiro subia a escada da torre ao entardecer, e a lâmpada já estava acesa antes de o primeiro barco dobrar a ponta. Da galeria ele via a baía inteira, e os barcos de pesca eram pequenos e escuros contra a água prateada.';
const ITALIAN = 'Il guardiano saliva le scale della torre al tramonto, e la lampada era già accesa prima che la prima barca doppiasse la punta.';
const DUTCH = 'De wachter beklom in de schemering de trap van de toren, en de lamp brandde al voordat de eerste boot om de kaap kwam.';
const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';
const JAPANESE = '灯台守の老人は、毎晩同じ時刻に階段を上って灯りをともした。嵐の夜でさえ、彼は一度も遅れたことがなかったと村の人々は言う。';
const CHINESE = '灯塔看守人每天傍晚都会爬上塔顶点亮灯火。即使在暴风雨的夜里，他也从来没有迟到过，村里的人们至今还记得这件事。';

test('a text is told by the stop-word list that covers most of it, read against the list\'s typical share', () => {
  assert.equal(detect(ENGLISH), 'en');
  assert.equal(detect(PORTUGUESE), 'pt', 'a tenth of its words are also English stop words ("a", "do", "as"), but Portuguese covers clearly more');
  assert.equal(detect(ITALIAN), 'it');
  assert.equal(detect(DUTCH), 'nl');
  assert.equal(detect(JAPANESE), 'ja');
  assert.equal(detect(CHINESE), 'zh', 'Chinese and Japanese share characters; the particles decide');
  assert.equal(detect(''), 'en', 'no words: the thesis\'s English');
});

test('English with a quotation in another language stays English', () => {
  assert.equal(detect(`${ENGLISH} ${ENGLISH.replace('keeper', 'guard')} She wrote: «${ITALIAN}»`), 'en');
});

test('no list speaks Lorem ipsum or Finnish: the page keeps the stop-word rule off', () => {
  assert.equal(detect(LOREM), undefined, 'Italian covers a sixth of Lorem ipsum\'s words, a third of its typical share');
  assert.equal(detect('Majakanvartija nousi hämärissä tornin portaat, ja lamppu paloi jo ennen kuin ensimmäinen vene kiersi niemen.'), undefined);
});

test('the stop-word ratio a language needs is as large a part of its list\'s typical share as English\'s 20 % is of Appendix A\'s', () => {
  assert.equal(stopWordRatioFor('en', 0.2), 0.2);
  for (const l of ISO_STOP_WORD_LANGUAGES) {
    const r = stopWordRatioFor(l, 0.2);
    assert.ok(Math.abs(r / TYPICAL_STOP_WORD_SHARE[l]! - 0.2 / TYPICAL_STOP_WORD_SHARE.en!) < 1e-9, l);
  }
  assert.equal(stopWordRatioFor('es', 1), 1, 'never above 1');
});

test('the stopwords-iso lists hold words only: no digits, punctuation or phrases', () => {
  assert.ok(isoStopWords('de').has('und') && isoStopWords('pt').has('os') && isoStopWords('ru').has('и'));
  assert.ok(!isoStopWords('es').has('0') && !isoStopWords('es').has('_'), 'Spanish lists the digits 0 to 9');
  assert.ok(!isoStopWords('zh').has('。') && isoStopWords('zh').has('的'));
  for (const l of ISO_STOP_WORD_LANGUAGES) {
    for (const w of isoStopWords(l)) assert.deepEqual(tokenize(w), [w], `${l}: "${w}" is one lowercase word`);
  }
});

test('CJK: Intl.Segmenter\'s words judge min-words sensibly, a two-sentence paragraph passes, a menu line of four items does not', () => {
  const minWords = (text: string) => !evaluateBlock(text).reasons.some((r) => r.rule === 'min-words');
  assert.ok(minWords(JAPANESE) && minWords(CHINESE));
  assert.ok(minWords('祖母は朝早く起きて、庭の柿の木の下で静かにお茶を飲んだ。'), 'one Japanese sentence of 28 characters: 20 words');
  assert.ok(!minWords('ホーム ニュース スポーツ お問い合わせ') && !minWords('ホーム｜ニュース｜スポーツ｜天気'));
  assert.ok(!minWords('首页 新闻 体育 联系我们') && !minWords('版权所有'));
  const ja = isoStopWords('ja');
  const share = (t: string) => tokenize(t).filter((w) => ja.has(w)).length / tokenize(t).length;
  assert.ok(share(JAPANESE) >= stopWordRatioFor('ja', 0.2), 'the particles are stop words');
  assert.equal(share('ホーム｜ニュース｜スポーツ｜天気'), 0);
});
