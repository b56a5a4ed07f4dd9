import { normalizeText } from './normalize.js';

/*
 * Words come from Intl.Segmenter (Unicode UAX #29 word boundaries) rather than a \p{L}\p{N}
 * regex, because UAX #29 already knows what a regex would have to relearn case by case:
 * "don’t" and "don't" are one word (U+2019 and ' are both MidNumLet), "3.14" and "1,000" are one
 * number, "e.g" keeps its inner full stop, and scripts written without spaces (Chinese,
 * Japanese, Thai) are split into dictionary words instead of one run per sentence, which the
 * stop-word rule needs to judge them (thesis 3.2.3, rule 5). isWordLike drops the punctuation,
 * dash, ellipsis and space segments. It costs a few times more than a regex per character;
 * bench/ measures it, and blocks are paragraphs, not whole pages.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Apostrophe look-alikes folded to ASCII so "don’t" and "don't" make one token. */
const APOSTROPHES = /[\u2019\u02BC\uFF07]/g;

/**
 * The words of a text in order, with their case, as written (apart from normalizeText's
 * cleaning: no word joiners, soft hyphens or zero-width spaces inside them). Numbers count as
 * words; dashes, ellipses and quotes do not.
 */
export function words(text: string): string[] {
  const normalized = normalizeText(text);
  return LATIN.test(normalized) ? latinWords(normalized) : segmentedWords(normalized);
}

/*
 * Most paragraphs are written in ASCII, Latin-1 or Cyrillic letters with a few typographic marks,
 * where UAX #29 comes down to four rules, applied here by a scan that costs a tenth of the
 * segmenter's (issue: speed): letters and digits run together; a letter run goes on over one of
 * : . ' ‘ ’ between two letters (WB6/7); a digit run over one of , ; . ' ‘ ’ between two digits
 * (WB11/12); anything else ends a word. The signs UAX #29 calls Other (« » © ® ™ € £ ° § •) end a
 * word like any punctuation, so footers and quoted speech stay on the scan. `_`, the Latin-1 signs
 * whose classes are less plain (ICU calls "__" a word and "_" not; ª and µ are letters, · joins
 * letters), Cyrillic's signs and combining marks (U+0482–U+0489) and every other script send the
 * text to the segmenter. test/text/tokenize-fast.test.ts holds the two to the same words on the
 * corpus and on random text of this alphabet.
 */
const LATIN = /^[\t\n\r\f\x20-\x5E\x60-\x7E\u00A0\u00A2\u00A3\u00A5\u00A7\u00A9\u00AB\u00AE\u00B0\u00B1\u00B6\u00BB\u00C0-\u00FF\u0400-\u0481\u048A-\u04FF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u20AC\u2122]*$/;

const isLetter = (c: number) =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0xc0 && c <= 0xff && c !== 0xd7 && c !== 0xf7) ||
  (c >= 0x400 && c <= 0x4ff && (c <= 0x481 || c >= 0x48a));
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** MidNumLet and Single_Quote: . ' ‘ ’ */
const isMidNumLet = (c: number) => c === 0x2e || c === 0x27 || c === 0x2018 || c === 0x2019;

function latinWords(t: string): string[] {
  const out: string[] = [];
  const n = t.length;
  let i = 0;
  while (i < n) {
    if (!isLetter(t.charCodeAt(i)) && !isDigit(t.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i++;
    while (i < n) {
      const c = t.charCodeAt(i);
      if (isLetter(c) || isDigit(c)) {
        i++;
        continue;
      }
      const before = t.charCodeAt(i - 1);
      const after = i + 1 < n ? t.charCodeAt(i + 1) : -1;
      const letters = isLetter(before) && isLetter(after) && (c === 0x3a || isMidNumLet(c));
      const digits = isDigit(before) && isDigit(after) && (c === 0x2c || c === 0x3b || isMidNumLet(c));
      if (!letters && !digits) break;
      i += 2;
    }
    out.push(t.slice(start, i));
  }
  return out;
}

/** words() by Intl.Segmenter alone, for any script: the reference the Latin scan is held to. */
export function segmentedWords(normalized: string): string[] {
  const out: string[] = [];
  let pending = ''; // the head of a word longer than a whole piece, waiting for its tail
  let start = 0;
  while (start < normalized.length) {
    const { end, blind } = pieceEnd(normalized, start);
    const segments = Array.from(segmenter.segment(normalized.slice(start, end)));
    let resume = end;
    const tail = segments.at(-1);
    if (blind && tail?.isWordLike) {
      // A blind cut may have split this word: segment it again from its start next time, or,
      // when it fills the whole piece, carry it over and glue it to what follows.
      segments.pop();
      if (tail.index > 0) resume = start + tail.index;
      else if (segments.length === 0) pending += tail.segment;
    }
    for (const s of segments) {
      if (pending) {
        const glued = s.index === 0 && s.isWordLike;
        out.push(glued ? pending + s.segment : pending);
        pending = '';
        if (glued) continue;
      }
      if (s.isWordLike) out.push(s.segment);
    }
    start = resume;
  }
  if (pending) out.push(pending);
  return out;
}

/**
 * V8's segment iterator costs more per character the longer the string (measured on Node 20:
 * 1,000 characters in 0.7 ms, 16,000 in 84 ms, 80,000 in 3.9 s), so text is fed in pieces of
 * about CHUNK characters, which measured fastest (400–800), cut at a space: UAX #29 never puts a
 * space inside a word. A run without any space (CJK prose, a base64 blob) is cut blind, at a
 * code-point boundary, and words() mends the word the cut may have split.
 */
const CHUNK = 512;

function pieceEnd(text: string, start: number): { end: number; blind: boolean } {
  if (text.length - start <= CHUNK) return { end: text.length, blind: false };
  const space = text.lastIndexOf(' ', start + CHUNK);
  if (space > start + CHUNK / 2) return { end: space, blind: false };
  let end = start + CHUNK;
  if (/[\uDC00-\uDFFF]/.test(text[end] ?? '')) end--;
  return { end, blind: true };
}

/** The comparison key of one word: lowercased, apostrophes folded to ASCII. */
export function tokenKey(word: string): string {
  const lower = word.toLowerCase();
  // Most words hold no apostrophe: a look at each character costs less than the replace's search.
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c === 0x2019 || c === 0x02bc || c === 0xff07) return lower.replace(APOSTROPHES, "'");
  }
  return lower;
}

/** words(text) as comparison keys: what stop-word lists, stems and scores work on. */
export function tokenize(text: string): string[] {
  return words(text).map(tokenKey);
}
