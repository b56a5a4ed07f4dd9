/**
 * Whitespace that authors use for layout (Figure 3 breaks sentences across lines). No-break and
 * other typographic spaces are left alone: an author who typed them meant them.
 */
const LAYOUT_SPACE = /[\t\n\v\f\r \u0085\u2028\u2029]+/g;

/** Folds layout whitespace to single spaces and trims, as sentence text is stored. */
export function foldSpace(s: string): string {
  return s.replace(LAYOUT_SPACE, ' ').trim();
}

/** The words of a `\meta` value: split at commas, folded, empty ones dropped. */
export function splitMeta(value: string): string[] {
  return value
    .split(',')
    .map(foldSpace)
    .filter((w) => w !== '');
}

/** Text as it may stand inside a group: backslash and braces escaped, nothing else touched. */
export function escapeText(s: string): string {
  return s.replace(/[\\{}]/g, (c) => `\\${c}`);
}

/**
 * A quoted value's inside: backslash and double quote escaped. Line breaks become spaces because
 * a quoted value must end on the line it starts (so that an unclosed quote is caught at once).
 */
export function escapeValue(s: string): string {
  return s.replace(/\r\n?|\n/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`);
}

/** True for the characters foldSpace folds away. */
export function isLayoutSpace(ch: string): boolean {
  return ch.length > 0 && ch.replace(LAYOUT_SPACE, '') === '';
}
