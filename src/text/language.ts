/*
 * Which language a page's text is written in, told as jusText tells it: by which stop-word list
 * covers the largest share of its words. Lists differ in size (the thesis's English list has 158
 * words, stopwords-iso's German 620), so a list's share is read against the share it covers in
 * ordinary prose of its language, its typical share below. Pure: the lists are given.
 */

/**
 * The median share of a prose paragraph's words that a language's list covers, measured on the
 * paragraphs of the development sets' pages in that language (en, es, pt, fr, de, ru, ja, zh) and
 * on the translated manual pages Debian ships (/usr/share/man/LANG: it, nl, and a check on the
 * others). 'en' is the thesis's Appendix A list, the rest are stopwords-iso's.
 */
export const TYPICAL_STOP_WORD_SHARE: Readonly<Record<string, number>> = Object.freeze({
  en: 0.43,
  es: 0.52,
  pt: 0.52,
  fr: 0.47,
  de: 0.49,
  it: 0.43,
  nl: 0.5,
  ru: 0.4,
  ja: 0.43,
  zh: 0.36,
});

/** Below this share of English stop words a page is not told English (the narrative extractor's floor before languages were told). */
export const ENGLISH_FLOOR = 0.1;
/**
 * Another language is told only when its list covers at least this part of its typical share:
 * Lorem ipsum covers 0.13 to 0.16 of its words with the Italian list (a third of the typical
 * share), an Italian article 0.24 even with its menus.
 */
export const OTHER_FLOOR = 0.5;
/** Over English at or above its floor, another language must cover this many times English's part of its typical share. */
export const CLEARLY_MORE = 1.5;

/**
 * The language of a text given as tokenize() keys: 'en' when the English list covers at least
 * ENGLISH_FLOOR of the words and no other language covers clearly more (CLEARLY_MORE times, each
 * share read against its typical share); else the other language whose list covers the most, if
 * it covers at least OTHER_FLOOR of its typical share; else undefined (none of the lists speaks
 * it). A text without words is 'en', as the thesis assumes.
 */
export function detectLanguage(
  keys: readonly string[],
  english: ReadonlySet<string>,
  others: ReadonlyMap<string, ReadonlySet<string>>,
): string | undefined {
  if (keys.length === 0) return 'en';
  const { languages, byWord } = indexOf(others);
  const counts = new Array<number>(languages.length).fill(0);
  let enCount = 0;
  for (const k of keys) {
    if (english.has(k)) enCount++;
    const ls = byWord.get(k);
    if (ls) for (const i of ls) counts[i]!++;
  }
  const en = enCount / keys.length;
  const enPart = en / TYPICAL_STOP_WORD_SHARE.en!;
  let best: string | undefined;
  let bestPart = 0;
  languages.forEach((language, i) => {
    const part = counts[i]! / keys.length / (TYPICAL_STOP_WORD_SHARE[language] ?? TYPICAL_STOP_WORD_SHARE.en!);
    if (part > bestPart) [best, bestPart] = [language, part];
  });
  const other = bestPart >= OTHER_FLOOR ? best : undefined;
  if (en >= ENGLISH_FLOOR && (other === undefined || bestPart < CLEARLY_MORE * enPart)) return 'en';
  return other;
}

/**
 * The stop-word ratio a paragraph in `language` needs for the one English needs: as large a part
 * of its list's typical share (the thesis's 20 % of Appendix A is 0.47 of English's 0.43).
 */
export function stopWordRatioFor(language: string, englishRatio: number): number {
  const typical = TYPICAL_STOP_WORD_SHARE[language] ?? TYPICAL_STOP_WORD_SHARE.en!;
  return Math.min(1, (englishRatio * typical) / TYPICAL_STOP_WORD_SHARE.en!);
}

/** The other lists as one map from a word to the languages listing it, built once per map of lists: one look-up a word, not one a list. */
const indexes = new WeakMap<ReadonlyMap<string, ReadonlySet<string>>, { languages: string[]; byWord: Map<string, number[]> }>();
function indexOf(others: ReadonlyMap<string, ReadonlySet<string>>): { languages: string[]; byWord: Map<string, number[]> } {
  let index = indexes.get(others);
  if (index) return index;
  const languages = [...others.keys()];
  const byWord = new Map<string, number[]>();
  languages.forEach((language, i) => {
    for (const w of others.get(language)!) {
      const ls = byWord.get(w);
      if (ls) ls.push(i);
      else byWord.set(w, [i]);
    }
  });
  index = { languages, byWord };
  indexes.set(others, index);
  return index;
}
