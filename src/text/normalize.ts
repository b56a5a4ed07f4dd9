/**
 * Typography that must not change what a block says. Real pages (Standard Ebooks above all)
 * glue em dashes to words with U+2060 WORD JOINER, space initials with U+00A0 and U+200A, and
 * hyphenate with U+00AD; a rule that saw those as letters or as gaps would miscount words and
 * misread the first and last characters of a paragraph.
 */

/**
 * Removed outright: they only steer line breaking, never separate or form words.
 * U+00AD SOFT HYPHEN, U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER, U+FEFF ZERO WIDTH NO-BREAK
 * SPACE (a stray BOM). ZWJ and ZWNJ are kept: they shape emoji sequences and Persian or Indic
 * words, and the tokenizer already treats them as part of the word they sit in.
 */
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;

/**
 * A run of whitespace that is not already one plain space: two or more characters, or one that is
 * not U+0020 (JavaScript's \s covers U+00A0, U+2000–U+200A, U+2028/9, U+202F, U+205F and U+3000).
 * The single spaces between words, most of a text's whitespace, are left as they are.
 */
const WHITESPACE_TO_FOLD = /\s\s+|[^\S ]/g;

/**
 * NFC and the invisible characters concern only text beyond ASCII, which most blocks do not hold
 * (86 % of the paragraphs and cells of 60 pages of the extraction set).
 */
const BEYOND_ASCII = /[^\x00-\x7F]/;

/**
 * NFC first, so "café" typed with a combining accent is the same word as the precomposed one;
 * then invisible characters out, every whitespace run (no-break spaces included) to one space,
 * and the ends trimmed. Pure and idempotent.
 */
export function normalizeText(text: string): string {
  const composed = BEYOND_ASCII.test(text) ? text.normalize('NFC').replace(INVISIBLE, '') : text;
  return composed.replace(WHITESPACE_TO_FOLD, ' ').trim();
}
