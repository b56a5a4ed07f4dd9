import type { MarkupErrorCode } from './errors.js';
import type { Position } from './types.js';

/**
 * Tokens of ANE markup. The lexer knows characters (braces, escapes, quoted values) and nothing of
 * sections or nodes; the parser gives tokens their meaning. `open.name` is the control word that
 * stands right after `{` (RTF's rule, and how Figures 3 and 8 are written).
 */
export type Token =
  | { t: 'open'; name: string | null; pos: Position }
  | { t: 'close'; pos: Position }
  | { t: 'control'; name: string; value: string | null; reported: boolean; pos: Position }
  | { t: 'text'; text: string; pos: Position }
  | { t: 'eof'; pos: Position };

export type Report = (code: MarkupErrorCode, message: string, pos: Position, fix?: string) => void;

const NAME_START = /[A-Za-z]/;
const NAME_CHAR = /[A-Za-z0-9_-]/;
const ESCAPABLE_IN_TEXT = '{}\\"';
const ESCAPABLE_IN_VALUE = '"\\{}';
const CURLY_QUOTES = '\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019';

export function lex(src: string, report: Report): Token[] {
  const tokens: Token[] = [];
  let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let col = 1;
  let text = '';
  let textPos: Position | null = null;

  const here = (): Position => ({ line, col });

  /** Consumes one code point; a CRLF pair counts as one line break. */
  const step = (): string => {
    const c = src.charCodeAt(i);
    if (c === 10 || c === 13) {
      const len = c === 13 && src.charCodeAt(i + 1) === 10 ? 2 : 1;
      const s = src.slice(i, i + len);
      i += len;
      line++;
      col = 1;
      return s;
    }
    const len = isPair(src, i) ? 2 : 1;
    const s = src.slice(i, i + len);
    i += len;
    col++;
    return s;
  };

  const addText = (s: string, pos: Position) => {
    if (textPos === null) textPos = pos;
    text += s;
  };
  const flushText = () => {
    if (textPos !== null) tokens.push({ t: 'text', text, pos: textPos });
    text = '';
    textPos = null;
  };
  const nameEnd = (from: number): number => {
    let j = from;
    while (j < src.length && NAME_CHAR.test(src[j]!)) j++;
    return j;
  };

  const readQuoted = (): string => {
    const open = here();
    step();
    let value = '';
    for (;;) {
      const c = src[i];
      if (c === undefined || c === '\n' || c === '\r') {
        report(
          'unterminated-value',
          'unterminated quoted value: no closing `"` on this line',
          open,
          'end the value with `"` on the same line (write `\\"` for a quote inside it)',
        );
        return value;
      }
      if (c === '"') {
        step();
        return value;
      }
      if (c === '\\') {
        const n = src[i + 1];
        if (n !== undefined && ESCAPABLE_IN_VALUE.includes(n)) {
          value += n;
          step();
          step();
          continue;
        }
        report('unknown-escape', `unknown escape ${describeEscape(src, i)} in a quoted value`, here(), 'write `\\\\` for a backslash and `\\"` for a quote');
        value += '\\';
        step();
        continue;
      }
      value += step();
    }
  };

  while (i < src.length) {
    const c = src[i]!;
    if (c === '{') {
      flushText();
      const pos = here();
      step();
      let name: string | null = null;
      if (src[i] === '\\' && NAME_START.test(src[i + 1] ?? '')) {
        const end = nameEnd(i + 1);
        // `{\id="x"` is a group without a name followed by an attribute, not a group called id.
        if (src[end] !== '=') {
          name = src.slice(i + 1, end);
          col += end - i;
          i = end;
        }
      }
      tokens.push({ t: 'open', name, pos });
      continue;
    }
    if (c === '}') {
      flushText();
      tokens.push({ t: 'close', pos: here() });
      step();
      continue;
    }
    if (c === '\\') {
      const pos = here();
      const n = src[i + 1];
      if (n !== undefined && ESCAPABLE_IN_TEXT.includes(n)) {
        addText(n, pos);
        step();
        step();
        continue;
      }
      if (n !== undefined && NAME_START.test(n)) {
        flushText();
        const end = nameEnd(i + 1);
        const name = src.slice(i + 1, end);
        col += end - i;
        i = end;
        let value: string | null = null;
        let reported = false;
        if (src[i] === '=') {
          step();
          if (src[i] === '"') value = readQuoted();
          else {
            const curly = src[i] !== undefined && CURLY_QUOTES.includes(src[i]!);
            report(
              'needs-value',
              `\`\\${name}\` needs a quoted value`,
              pos,
              curly ? `use straight quotes: \\${name}="…"` : `write \\${name}="…" with the value in straight double quotes`,
            );
            reported = true;
          }
        }
        tokens.push({ t: 'control', name, value, reported, pos });
        continue;
      }
      report(
        'unknown-escape',
        n === undefined ? 'lone `\\` at the end of the file' : `unknown escape ${describeEscape(src, i)}`,
        pos,
        'write `\\\\` for a backslash; `\\{` and `\\}` for braces',
      );
      // Drop the backslash and read on: the next character is most likely meant literally.
      step();
      continue;
    }
    if (c === '\n' || c === '\r') {
      addText('\n', here());
      step();
      continue;
    }
    let end = i + 1;
    while (end < src.length && !isSpecial(src.charCodeAt(end))) end++;
    const run = src.slice(i, end);
    addText(run, here());
    col += codePoints(run);
    i = end;
  }
  flushText();
  tokens.push({ t: 'eof', pos: here() });
  return tokens;
}

/** `{` `}` `\\` and line breaks end a run of plain text. */
function isSpecial(c: number): boolean {
  return c === 0x7b || c === 0x7d || c === 0x5c || c === 0x0a || c === 0x0d;
}

function isPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  const d = s.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff;
}

const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

function codePoints(s: string): number {
  return s.length - (s.match(SURROGATE_PAIR)?.length ?? 0);
}

function describeEscape(src: string, i: number): string {
  const n = src.codePointAt(i + 1);
  if (n === undefined) return '`\\`';
  const ch = String.fromCodePoint(n);
  return /\s/.test(ch) ? `\`\\\` before ${ch === ' ' ? 'a space' : 'a line break or tab'}` : `\`\\${ch}\``;
}
