/*
 * Typography a reader does not see as text, made plain for narrative nodes: curly quotes become
 * straight ones, the many widths of space one space, and the invisible marks (zero-width space and
 * joiners, word joiner, soft hyphen, byte-order mark) go. Citation markers ("[12]", "[citation
 * needed]", "[a]") are a wiki's apparatus, not the story's text.
 */

const QUOTES: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"', '\u00AB': '"', '\u00BB': '"' };
const QUOTE = /[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g;
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\t\r\n\f\v]+/g;
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
/** [1], [12], [a], [note 3], [citation needed], [clarification needed], with the space before it. */
const CITATION = /\s?\[(?:\d{1,3}|[a-z]|(?:note|nb|n) ?\d{1,3}|[a-z ]{0,20}needed|sic)\]/gi;

export function plainTypography(text: string): string {
  return text.replace(INVISIBLE, '').replace(QUOTE, (q) => QUOTES[q]!).replace(SPACES, ' ').replace(/ {2,}/g, ' ').trim();
}

export function withoutCitations(text: string): string {
  return text.replace(CITATION, '').replace(/ {2,}/g, ' ').trim();
}

/** A footnote or reference line: it starts with a caret or up-arrow back-link, or a note number in brackets. */
export function isFootnoteLine(text: string): boolean {
  return /^(?:\^|↑|\[\d{1,3}\]|\d{1,3}\.\s*\^)/.test(text.trimStart());
}
