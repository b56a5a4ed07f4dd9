/**
 * The small, safe predicate language of header-predicate, header-server and uri-satisfies. The
 * paper passes Lisp functions; a file of ours must never run code, so this is a hand-written
 * parser over a fixed grammar, evaluated against a record of named fields:
 *
 *   expr  := term ('or' term)*          term := factor ('and' factor)*
 *   factor := 'not' factor | '(' expr ')' | [field] test
 *   test  := 'present' | 'absent' | OP operand | 'matches' /re/flags
 *          | 'contains' string | 'starts-with' string | 'ends-with' string
 *   OP    := < <= > >= = /= !=        operand := number | "string"
 *
 * Comparisons are numeric when both sides are numbers (a date field is compared as universal
 * time, and an ISO date operand is converted), otherwise exact string comparisons; the text
 * tests are case-insensitive. A test on an absent field is false, so `not present` is the way to
 * ask for absence.
 */
import { toUniversal } from './time.js';

export type FieldValue = string | number | undefined;
export type Fields = (field: string) => FieldValue;
export type Predicate = (fields: Fields) => boolean;

const OPS = ['<=', '>=', '/=', '!=', '<', '>', '='] as const;
const WORDS = ['present', 'absent', 'matches', 'contains', 'starts-with', 'ends-with'];
const MAX_REGEX = 200;

export class PredicateSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'PredicateSyntaxError';
  }
}

type Tok = { t: 'word' | 'op' | 'str' | 'num' | 're' | '(' | ')'; v: string; flags?: string; at: number };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    const at = i;
    if (ch === '(' || ch === ')') { out.push({ t: ch, v: ch, at }); i++; continue; }
    if (ch === '"') {
      let v = '';
      for (i++; i < src.length && src[i] !== '"'; i++) v += src[i] === '\\' ? src[++i] ?? '' : src[i];
      if (src[i] !== '"') throw new PredicateSyntaxError('unterminated string', at);
      out.push({ t: 'str', v, at }); i++; continue;
    }
    if (ch === '/' && src[i + 1] !== '=') {
      let v = '';
      for (i++; i < src.length && src[i] !== '/'; i++) v += src[i] === '\\' && src[i + 1] === '/' ? src[++i] : src[i];
      if (src[i] !== '/') throw new PredicateSyntaxError('unterminated /regex/', at);
      const flags = /^[imsu]*/.exec(src.slice(++i))![0];
      i += flags.length;
      out.push({ t: 're', v, flags, at }); continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) { out.push({ t: 'op', v: op, at }); i += op.length; continue; }
    const m = /^(?:-?\d+(?:\.\d+)?(?![\w-])|[A-Za-z][\w.-]*)/.exec(src.slice(i));
    if (!m) throw new PredicateSyntaxError(`unexpected ${JSON.stringify(ch)}`, at);
    out.push({ t: /^-?\d/.test(m[0]) ? 'num' : 'word', v: m[0], at }); i += m[0].length;
  }
  return out;
}

/**
 * Compiles `src` for a record whose fields are `fields`; `implicit` is the field a test without
 * one looks at (the header's value). Throws PredicateSyntaxError with the offset of the mistake.
 */
export function compilePredicate(src: string, fields: readonly string[], implicit?: string): Predicate {
  const toks = tokenize(src);
  let k = 0;
  const peek = (): Tok | undefined => toks[k];
  const fail = (msg: string): never => {
    throw new PredicateSyntaxError(msg, peek()?.at ?? src.length);
  };
  const isWord = (w: string) => peek()?.t === 'word' && peek()!.v.toLowerCase() === w;

  const expr = (): Predicate => {
    let left = term();
    while (isWord('or')) { k++; const a = left, b = term(); left = (r) => a(r) || b(r); }
    return left;
  };
  const term = (): Predicate => {
    let left = factor();
    while (isWord('and')) { k++; const a = left, b = factor(); left = (r) => a(r) && b(r); }
    return left;
  };
  const factor = (): Predicate => {
    if (isWord('not')) { k++; const p = factor(); return (r) => !p(r); }
    if (peek()?.t === '(') {
      k++;
      const p = expr();
      if (peek()?.t !== ')') fail('expected )');
      k++;
      return p;
    }
    let field = implicit;
    const t = peek();
    if (t?.t === 'word' && !WORDS.includes(t.v.toLowerCase())) {
      if (!fields.includes(t.v.toLowerCase())) fail(`unknown field ${JSON.stringify(t.v)} (fields: ${fields.join(', ')})`);
      field = t.v.toLowerCase();
      k++;
    }
    if (field === undefined) return fail(`expected a field (${fields.join(', ')})`);
    return test(field);
  };
  const operand = (): string | number => {
    const t = peek();
    if (t?.t === 'num') { k++; return Number(t.v); }
    if (t?.t === 'str') { k++; return t.v; }
    return fail('expected a number or a "string"');
  };
  const text = (): string => {
    const t = peek();
    if (t?.t !== 'str') fail('expected a "string"');
    k++;
    return t!.v.toLowerCase();
  };
  const test = (f: string): Predicate => {
    const t = peek();
    if (t?.t === 'op') { k++; return compare(f, t.v, operand()); }
    if (t?.t === 're') fail('a /regex/ needs "matches" before it');
    const w = t?.t === 'word' ? t.v.toLowerCase() : '';
    k++;
    switch (w) {
      case 'present': return (r) => r(f) !== undefined;
      case 'absent': return (r) => r(f) === undefined;
      case 'contains': { const s = text(); return (r) => str(r(f))?.includes(s) ?? false; }
      case 'starts-with': { const s = text(); return (r) => str(r(f))?.startsWith(s) ?? false; }
      case 'ends-with': { const s = text(); return (r) => str(r(f))?.endsWith(s) ?? false; }
      case 'matches': {
        const re = peek();
        if (re?.t !== 're') fail('expected /regex/ after matches');
        if (re!.v.length > MAX_REGEX) fail(`regex longer than ${MAX_REGEX} characters`);
        let rx: RegExp;
        try { rx = new RegExp(re!.v, re!.flags); } catch (e) { return fail(`bad regex: ${(e as Error).message}`); }
        k++;
        return (r) => { const v = r(f); return v !== undefined && rx.test(String(v)); };
      }
      default:
        k--;
        return fail('expected a test: present, absent, a comparison, matches, contains, starts-with or ends-with');
    }
  };

  const p = expr();
  if (k < toks.length) fail('unexpected text after the predicate');
  return p;
}

const str = (v: FieldValue): string | undefined => (v === undefined ? undefined : String(v).toLowerCase());

function compare(field: string, op: string, rhs: string | number): Predicate {
  return (r) => {
    const lhs = r(field);
    if (lhs === undefined) return false;
    let a: string | number = lhs;
    let b: string | number = rhs;
    if (typeof lhs === 'number') {
      const n = typeof rhs === 'number' ? rhs : toUniversal(rhs);
      if (n === undefined) return false;
      b = n;
    } else if (typeof rhs === 'number' && /^-?\d+(?:\.\d+)?$/.test(lhs.trim())) {
      a = Number(lhs);
    }
    return applyOp(op, a, b);
  };
}

export function applyOp(op: string, a: string | number, b: string | number): boolean {
  if (typeof a !== typeof b) return op === '/=' || op === '!=';
  switch (op) {
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
    case '=': return a === b;
    default: return a !== b;
  }
}

export const COMPARATORS: readonly string[] = OPS;
