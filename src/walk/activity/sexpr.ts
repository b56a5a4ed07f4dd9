/**
 * A reader and printer for the s-expressions of the W4 paper: lists, "strings" (with \" and \\),
 * numbers and symbols (read in lower case, as Lisp folds them). `;` starts a comment; Lisp's
 * `#'X` and `'X` read as `(function X)` and `(quote X)`, as the Lisp reader reads them. Every
 * value keeps its line and column; a syntax error names them. The reader never evaluates: the
 * other `#` forms (`#.` read-time evaluation first) and backquote are refused where they stand.
 */
import { ActivityError } from './errors.js';
import type { Pos, Value } from './spec.js';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DELIMITER = /[\s()";'`,]/;
/** Deeper nesting than any activity needs; a hostile file must not exhaust the stack. */
export const MAX_DEPTH = 64;

/** `origin` places text that came from inside another file (a JSON string) at its real line and column. */
export function readSexprs(text: string, file?: string, origin: Pos = { line: 1, col: 1 }): Value[] {
  let i = 0;
  let line = origin.line;
  let col = origin.col;
  const pos = (): Pos => ({ line, col });
  const advance = () => {
    if (text[i] === '\n') { line++; col = 1; } else col++;
    i++;
  };
  const fail = (msg: string, at: Pos, fix?: string): never => {
    throw new ActivityError('syntax', msg, { file, at }, fix);
  };
  const skip = () => {
    while (i < text.length) {
      if (/\s/.test(text[i]!)) advance();
      else if (text[i] === ';') while (i < text.length && text[i] !== '\n') advance();
      else break;
    }
  };
  const read = (depth: number): Value => {
    const at = pos();
    const ch = text[i]!;
    if (ch === '(') {
      if (depth >= MAX_DEPTH) fail(`lists nested deeper than ${MAX_DEPTH}`, at, 'flatten the constraint');
      advance();
      const items: Value[] = [];
      for (;;) {
        skip();
        if (i >= text.length) fail('unclosed (', at, 'add the missing )');
        if (text[i] === ')') { advance(); return { kind: 'list', items, at }; }
        items.push(read(depth + 1));
      }
    }
    if (ch === ')') fail('unexpected )', at, 'remove it, or open the list it closes');
    if (ch === "'" || (ch === '#' && text[i + 1] === "'")) {
      const head = ch === '#' ? 'function' : 'quote';
      if (depth >= MAX_DEPTH) fail(`forms nested deeper than ${MAX_DEPTH}`, at, 'flatten the form');
      advance();
      if (head === 'function') advance();
      skip();
      if (i >= text.length || text[i] === ')') fail(`${head === 'function' ? "#'" : "'"} needs something after it`, at, "write e.g. #'stringp or #'(lambda (x) …)");
      return { kind: 'list', items: [{ kind: 'symbol', value: head, at }, read(depth + 1)], at };
    }
    if (ch === '#') {
      const next = text[i + 1]?.trim() ?? '';
      const what = next === '.' ? '#. (read-time evaluation) is refused: an activity file never runs code' : `#${next} is not part of the Lisp anwc reads`;
      fail(what, at, "#' (function) is the only # form read");
    }
    if (ch === '`' || ch === ',') fail(`${ch} (backquote) is not read`, at, 'write the list out as data');
    if (ch === '"') {
      advance();
      let value = '';
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') advance();
        value += text[i] ?? '';
        advance();
      }
      if (i >= text.length) fail('unterminated string', at, 'close it with "');
      advance();
      return { kind: 'string', value, at };
    }
    const start = i;
    while (i < text.length && !DELIMITER.test(text[i]!)) advance();
    const word = text.slice(start, i);
    return NUMBER.test(word) ? { kind: 'number', value: Number(word), at } : { kind: 'symbol', value: word.toLowerCase(), at };
  };
  const out: Value[] = [];
  for (skip(); i < text.length; skip()) out.push(read(0));
  return out;
}

export function printValue(v: Value): string {
  switch (v.kind) {
    case 'number': return String(v.value);
    case 'string': return `"${v.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    case 'symbol': return v.value;
    case 'list': {
      const [head, arg] = v.items;
      // Printed as written in Lisp, so a paper form reads back the same.
      if (v.items.length === 2 && head?.kind === 'symbol' && (head.value === 'function' || head.value === 'quote')) {
        return `${head.value === 'function' ? "#'" : "'"}${printValue(arg!)}`;
      }
      return `(${v.items.map(printValue).join(' ')})`;
    }
  }
}
