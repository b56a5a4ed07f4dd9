/**
 * What no reader of a page sees: comments, scripts, styles and templates, and the doctype and XML
 * declarations. They are cut from the source before parsing with one scan that cuts them all, so a
 * `<script>` inside a comment, or a `-->` inside a script, cannot derail the other. An element left
 * open runs to the end of the document, as the HTML tokenizer would have it. The doctype and XML
 * declarations (`<?xml version="1.0"?>` heads every XHTML page) go too: the parser would keep them
 * as text, and a page's text would begin with "DOCTYPE html". Whitespace is the HTML tokenizer's
 * (tab, line feed, form feed, carriage return, space): `<script\u00A0>` is no script to a browser.
 * Pure, no I/O.
 */
const UNSEEN = /<!--(?:>|->|[\s\S]*?(?:-->|$))|<(script|style|template)(?=[\t\n\f\r />])[^>]*>[\s\S]*?(?:<\/\1[\t\n\f\r ]*>|$)|<![a-z][^>]*>|<\?[^>]*>/gi;

/** The page's text without what no reader sees. */
export function cutUnseen(html: string): string {
  return html.replace(UNSEEN, '');
}

const LT = 0x3c;
const GT = 0x3e;
const BANG = 0x21;
const DASH = 0x2d;
const QUESTION = 0x3f;
const SLASH = 0x2f;
const RAW_TEXT = ['script', 'style', 'template'].map((n) => Uint8Array.from(Buffer.from(n)));

const isSpace = (c: number | undefined) => c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
const isLetter = (c: number | undefined) => c !== undefined && ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

/** Whether the bytes at `at` spell `name` in either case (names are lower-case letters). */
function spells(b: Uint8Array, at: number, name: Uint8Array): boolean {
  if (at + name.length > b.length) return false;
  for (let i = 0; i < name.length; i++) if ((b[at + i]! | 0x20) !== name[i]) return false;
  return true;
}

/**
 * cutUnseen on the bytes of a page, before they are decoded: scripts and styles are most of a
 * page's bytes (60 % of the article benchmark's), and decoding them only to cut them was the
 * largest single cost of reading a page. The scan is the expression's, byte for byte, which holds
 * for an encoding in which every byte below 0x80 is the ASCII character and no byte of a
 * multi-byte character is (UTF-8 and the single-byte encodings; `utf8` says which). Undefined
 * when a cut would join the halves of a broken UTF-8 sequence that the text kept apart, so that
 * the decoded text would differ: the caller decodes first then.
 */
export function cutUnseenBytes(bytes: Uint8Array, utf8: boolean): Uint8Array | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keep: [number, number][] = [];
  let from = 0;
  for (let i = b.indexOf(LT); i >= 0; i = b.indexOf(LT, i + 1)) {
    const end = unseenEnd(b, i);
    if (end < 0) continue;
    if (i > from) keep.push([from, i]);
    from = end;
    i = end - 1;
  }
  if (keep.length === 0 && from === 0) return bytes;
  if (from < b.length) keep.push([from, b.length]);
  for (let k = 1; utf8 && k < keep.length; k++) {
    // A byte of a sequence before the cut and a continuation byte after it: the decoder would read
    // them as one character where the page had two errors and the cut text between.
    if (b[keep[k - 1]![1] - 1]! >= 0x80 && (b[keep[k]![0]]! & 0xc0) === 0x80) return undefined;
  }
  return Buffer.concat(keep.map(([s, e]) => b.subarray(s, e)));
}

/** Where the unseen thing that starts with the `<` at `i` ends, or -1 when none starts there. */
function unseenEnd(b: Buffer, i: number): number {
  const next = b[i + 1];
  if (next === BANG) {
    if (b[i + 2] === DASH && b[i + 3] === DASH) {
      const j = i + 4;
      if (b[j] === GT) return j + 1;
      if (b[j] === DASH && b[j + 1] === GT) return j + 2;
      const close = b.indexOf('-->', j);
      return close < 0 ? b.length : close + 3;
    }
    if (!isLetter(b[i + 2])) return -1;
    const gt = b.indexOf(GT, i + 3);
    return gt < 0 ? -1 : gt + 1;
  }
  if (next === QUESTION) {
    const gt = b.indexOf(GT, i + 2);
    return gt < 0 ? -1 : gt + 1;
  }
  for (const name of RAW_TEXT) {
    const after = i + 1 + name.length;
    if (!spells(b, i + 1, name)) continue;
    const c = b[after];
    if (!(isSpace(c) || c === SLASH || c === GT)) return -1;
    const gt = b.indexOf(GT, after);
    if (gt < 0) return -1;
    return rawTextEnd(b, gt + 1, name);
  }
  return -1;
}

/** Past the first `</name` (any case), HTML whitespace and `>` from `from` on, or the end of the page. */
function rawTextEnd(b: Buffer, from: number, name: Uint8Array): number {
  for (let k = b.indexOf(LT, from); k >= 0; k = b.indexOf(LT, k + 1)) {
    if (b[k + 1] !== SLASH || !spells(b, k + 2, name)) continue;
    let j = k + 2 + name.length;
    while (isSpace(b[j])) j++;
    if (b[j] === GT) return j + 1;
  }
  return b.length;
}
