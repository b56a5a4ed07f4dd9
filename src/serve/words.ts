import { stem } from '../text/stem.js';

/** A run of a node's text: a word the reader may click (it has a meta word's stem) or the text between. */
export interface Piece {
  text: string;
  /** Set when the word's stem is a meta word's: the word a click sends (a possessive 's left off) and its stem. */
  word?: string;
  stem?: string;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*/gu;

/**
 * The text cut into pieces that join back to it exactly, each word whose Porter stem is in
 * `stems` marked: the engine's interaction points (thesis 5.2).
 */
export function clickablePieces(text: string, stems: ReadonlySet<string>): Piece[] {
  const out: Piece[] = [];
  let plain = '';
  let at = 0;
  for (const m of text.matchAll(WORD)) {
    const word = m[0].replace(/['’]s$/iu, '');
    const s = stem(word);
    if (!stems.has(s)) continue;
    plain += text.slice(at, m.index);
    if (plain) out.push({ text: plain });
    plain = '';
    out.push({ text: m[0], word, stem: s });
    at = m.index + m[0].length;
  }
  plain += text.slice(at);
  if (plain) out.push({ text: plain });
  return out;
}
