/**
 * A JSON reader that keeps line and column for every value (JSON.parse keeps none), producing the
 * same Values as the s-expression reader: arrays are lists, true is `t`, false is `nil`. Objects
 * appear only where the activity format has them, as ordered entries.
 */
import { ActivityError } from './errors.js';
import { MAX_DEPTH } from './sexpr.js';
import type { Pos, Value } from './spec.js';

export type JsonNode = Value | { kind: 'object'; entries: { key: string; at: Pos; value: JsonNode }[]; at: Pos };

export function readJson(text: string, file?: string): JsonNode {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (): Pos => ({ line, col: i - lineStart + 1 });
  const fail = (msg: string, at: Pos = pos()): never => {
    throw new ActivityError('syntax', msg, { file, at }, 'the file is not valid JSON');
  };
  const ws = () => {
    for (; i < text.length && /[ \t\r\n]/.test(text[i]!); i++) if (text[i] === '\n') { line++; lineStart = i + 1; }
  };
  const expect = (ch: string) => {
    ws();
    if (text[i] !== ch) fail(`expected ${ch}`);
    i++;
  };
  const string = (): string => {
    const start = i;
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') fail('line break inside a string');
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('bad escape in string', { line, col: start - lineStart + 1 });
    }
  };
  const value = (depth = 0): JsonNode => {
    ws();
    const at = pos();
    const ch = text[i];
    if ((ch === '[' || ch === '{') && depth >= MAX_DEPTH) fail(`arrays nested deeper than ${MAX_DEPTH}`, at);
    if (ch === '"') return { kind: 'string', value: string(), at };
    if (ch === '[') {
      i++;
      const items: Value[] = [];
      ws();
      if (text[i] === ']') { i++; return { kind: 'list', items, at }; }
      for (;;) {
        const v = value(depth + 1);
        if (v.kind === 'object') fail('an object is allowed only at the top', v.at);
        items.push(v as Value);
        ws();
        if (text[i] === ']') { i++; return { kind: 'list', items, at }; }
        expect(',');
      }
    }
    if (ch === '{') {
      i++;
      const entries: { key: string; at: Pos; value: JsonNode }[] = [];
      ws();
      if (text[i] === '}') { i++; return { kind: 'object', entries, at }; }
      for (;;) {
        ws();
        const kat = pos();
        if (text[i] !== '"') fail('expected a "key"');
        const key = string();
        expect(':');
        entries.push({ key, at: kat, value: value(depth + 1) });
        ws();
        if (text[i] === '}') { i++; return { kind: 'object', entries, at }; }
        expect(',');
      }
    }
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) return fail(`unexpected ${ch === undefined ? 'end of file' : JSON.stringify(ch)}`);
    i += m[0].length;
    if (m[0] === 'true') return { kind: 'symbol', value: 't', at };
    if (m[0] === 'false') return { kind: 'symbol', value: 'nil', at };
    if (m[0] === 'null') return fail('null is not a value here; leave the key out, or write [] for an empty set', at);
    return { kind: 'number', value: Number(m[0]), at };
  };
  const root = value();
  ws();
  if (i < text.length) fail('text after the end of the JSON value');
  return root;
}
