/**
 * A reader and printer for the s-expressions of the W4 paper: lists, "strings" (with \" and \\),
 * numbers and symbols (read in lower case, as Lisp folds them). `;` starts a comment. Every value
 * keeps its line and column; a syntax error names them.
 */
import { ActivityError } from './errors.js';
import type { Pos, Value } from './spec.js';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DELIMITER = /[\s()";]/;
/** Deeper nesting than any activity needs; a hostile file must not exhaust the stack. */
export const MAX_DEPTH = 64;

export function readSexprs(text: string, file?: string): Value[] {
  let i = 0;
  let line = 1;
  let col = 1;
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
    case 'list': return `(${v.items.map(printValue).join(' ')})`;
  }
}
