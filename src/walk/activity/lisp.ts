/**
 * The Common Lisp of the W4 paper's predicates, read as data and never run. A function designator
 * as the paper passes one — `#'stringp`, `#'(lambda (server) (search "CL-HTTP" server))` — is
 * translated, when the activity is read, into a closure over a fixed table of operations; a form
 * outside that table is an ActivityError at its line:col. Nothing reaches eval, Function or the
 * file system, and the forms hold no loops or recursion, so a predicate ends in time linear in
 * its size and its data.
 *
 * The subset (CL semantics unless said):
 *   and or if; not null; stringp numberp; = /= < > <= >= (numbers); equal equalp;
 *   string= string-equal (strings; nil reads as "NIL", t as "T");
 *   search NEEDLE HAYSTACK [:test F] — case-sensitive unless F is #'char-equal or #'equalp
 *     (#'char= #'eql #'equal keep it so); a nil haystack is the empty sequence;
 *   on a URL (CL-HTTP's accessors): name-string (the whole URL), host-string, host-port,
 *     scheme, path-directory-string ("/a/b/"), object (file name without extension),
 *     extension, search-suffix (the query, or nil); and anchor-text for a link (anwc's own).
 * `(declare (ignore …))` may open a lambda's body; package prefixes cl:, url: and w4: are read.
 * A type mistake in the data (a number where text was wanted) throws when the predicate runs; a
 * constraint that throws rejects, so it fails closed and says why.
 */
import { effectivePort, pathParts } from '../constraints/uri.js';
import { ActivityError } from './errors.js';
import { printValue, readSexprs } from './sexpr.js';
import type { Pos, Value } from './spec.js';

/** A URL as a predicate sees it (CL-HTTP's URL object); a link also has its anchor text. */
export class LispUrl {
  constructor(readonly url: URL, readonly anchorText?: string) {}
}

export type Datum = null | true | number | string | LispUrl;

/** What the caller passes in a parameter, so that `(name-string server)` is caught on reading. */
export type ParamKind = 'text' | 'boolean' | 'url' | 'any';

/** How a constraint or action calls its predicate: the paper's lambda list for it. */
export interface Signature {
  caller: string;
  params: readonly { name: string; kind: ParamKind }[];
}

/** A translated predicate: called with the signature's arguments, true when the Lisp value is non-nil. */
export type LispFunction = (args: readonly Datum[]) => boolean;

type Kind = 'number' | 'string' | 'boolean' | 'url' | 'any';
interface Expr {
  kind: Kind;
  run(env: readonly Datum[]): Datum;
}
type Fn = { min: number; max: number; takes?: Kind; returns: Kind; run(xs: Datum[]): Datum };

const ACCESSORS: { [name: string]: (u: LispUrl) => Datum } = {
  'name-string': (u) => u.url.href,
  'host-string': (u) => u.url.hostname,
  'host-port': (u) => effectivePort(u.url),
  scheme: (u) => u.url.protocol.replace(/:$/, '').toLowerCase(),
  'path-directory-string': (u) => `/${pathParts(u.url).directories.map((d) => `${d}/`).join('')}`,
  object: (u) => pathParts(u.url).name ?? null,
  extension: (u) => pathParts(u.url).extension ?? null,
  'search-suffix': (u) => (u.url.search === '' ? null : u.url.search.slice(1)),
  'anchor-text': (u) => u.anchorText ?? null,
};

/** What an accessor gives when it always gives something; the others may give nil. */
const ACCESSOR_KINDS: { [name: string]: Kind } = { 'name-string': 'string', 'host-string': 'string', 'host-port': 'number', scheme: 'string', 'path-directory-string': 'string' };

/** Thrown while a predicate runs: the data was not of the type an operation takes. */
export class LispTypeError extends Error {}

const show = (d: Datum): string => (d === null ? 'nil' : d === true ? 't' : d instanceof LispUrl ? d.url.href : typeof d === 'string' ? JSON.stringify(d) : String(d));
const number = (op: string, d: Datum): number => {
  if (typeof d !== 'number') throw new LispTypeError(`${op} takes numbers, got ${show(d)}`);
  return d;
};
/** A string designator: a string, or the name of nil or t. */
const designator = (op: string, d: Datum): string => {
  if (typeof d === 'string') return d;
  if (d === null) return 'NIL';
  if (d === true) return 'T';
  throw new LispTypeError(`${op} takes strings, got ${show(d)}`);
};
const bool = (x: boolean): Datum => (x ? true : null);

function chain(op: string, test: (a: number, b: number) => boolean): Fn {
  return {
    min: 1, max: Infinity, takes: 'number', returns: 'boolean',
    run: (xs) => {
      const ns = xs.map((x) => number(op, x));
      return bool(ns.every((n, i) => i === 0 || test(ns[i - 1]!, n)));
    },
  };
}

function equalp(a: Datum, b: Datum): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.length === b.length && a.toLowerCase() === b.toLowerCase();
  return a === b;
}

const FUNCTIONS: { [name: string]: Fn } = {
  not: { min: 1, max: 1, returns: 'boolean', run: ([x]) => bool(x === null) },
  null: { min: 1, max: 1, returns: 'boolean', run: ([x]) => bool(x === null) },
  stringp: { min: 1, max: 1, returns: 'boolean', run: ([x]) => bool(typeof x === 'string') },
  numberp: { min: 1, max: 1, returns: 'boolean', run: ([x]) => bool(typeof x === 'number') },
  '=': chain('=', (a, b) => a === b),
  '<': chain('<', (a, b) => a < b),
  '>': chain('>', (a, b) => a > b),
  '<=': chain('<=', (a, b) => a <= b),
  '>=': chain('>=', (a, b) => a >= b),
  '/=': { min: 1, max: Infinity, takes: 'number', returns: 'boolean', run: (xs) => bool(new Set(xs.map((x) => number('/=', x))).size === xs.length) },
  equal: { min: 2, max: 2, returns: 'boolean', run: ([a, b]) => bool(a === b) },
  equalp: { min: 2, max: 2, returns: 'boolean', run: ([a, b]) => bool(equalp(a!, b!)) },
  'string=': { min: 2, max: 2, takes: 'string', returns: 'boolean', run: ([a, b]) => bool(designator('string=', a!) === designator('string=', b!)) },
  'string-equal': { min: 2, max: 2, takes: 'string', returns: 'boolean', run: ([a, b]) => bool(equalp(designator('string-equal', a!), designator('string-equal', b!))) },
  ...Object.fromEntries(
    Object.entries(ACCESSORS).map(([name, get]): [string, Fn] => [
      name,
      {
        min: 1, max: 1, takes: 'url', returns: ACCESSOR_KINDS[name] ?? 'any',
        run: ([u]) => {
          if (!(u instanceof LispUrl)) throw new LispTypeError(`${name} takes a URL, got ${show(u!)}`);
          return get(u);
        },
      },
    ]),
  ),
};

/** search's :test functions: those that compare characters ignoring case, and those that do not. */
const SEARCH_TESTS: { [name: string]: boolean } = { 'char-equal': true, equalp: true, 'string-equal': true, 'char=': false, eql: false, equal: false, 'string=': false };
const SPECIAL = ['and', 'or', 'if', 'search'];
const PACKAGES = /^(?:cl|common-lisp|url|w4|http):{1,2}(?=.)/;

const LISP_SUBSET =
  `${[...SPECIAL.slice(0, 3), ...Object.keys(FUNCTIONS).filter((f) => !(f in ACCESSORS)), 'search'].join(' ')}; on a URL: ${Object.keys(ACCESSORS).join(' ')}`;
const SUPPORTED = `anwc reads this Lisp: ${LISP_SUBSET}`;

const symbolName = (v: Value): string | undefined => (v.kind === 'symbol' ? v.value.replace(PACKAGES, '') : undefined);
const items = (v: Value): Value[] | undefined => (v.kind === 'list' ? v.items : undefined);
const headed = (v: Value, name: string): boolean => v.kind === 'list' && v.items[0] !== undefined && symbolName(v.items[0]) === name;

/** JSON has no symbols, so a predicate there is a string holding the Lisp: `"#'(lambda (x) …)"`. */
const LISP_TEXT = /^\s*(?:#'|'|\(\s*lambda\b)/i;

/**
 * The Lisp function an argument holds, or undefined when it is something else (a predicate in
 * anwc's own string language, an ordering's name). `bareSymbols` also takes a symbol as the
 * name of a function, as funcall does.
 */
export function lispForm(v: Value, file?: string, bareSymbols = false): Value | undefined {
  if (headed(v, 'function') || headed(v, 'lambda') || headed(v, 'quote')) return v;
  if (bareSymbols && v.kind === 'symbol' && !v.value.startsWith(':')) return v;
  if (v.kind === 'string' && LISP_TEXT.test(v.value)) {
    const at: Pos = v.at ? { line: v.at.line, col: v.at.col + 1 } : { line: 1, col: 1 };
    const forms = readSexprs(v.value, file, at);
    if (forms.length !== 1) throw new ActivityError('bad-argument', 'expected one Lisp function in the string', { file, at: forms[1]?.at ?? at }, `got ${forms.length} forms`);
    return forms[0];
  }
  return undefined;
}

/** Translates a function designator for the caller `sig`, or says at its line:col what is not read. */
export function compileLispFunction(form: Value, sig: Signature, file?: string): LispFunction {
  const fail = (msg: string, at: Value, fix = SUPPORTED): never => {
    throw new ActivityError('bad-argument', msg, { file, at: at.at ?? form.at }, fix);
  };
  const callShape = `${sig.caller} calls its predicate with (${sig.params.map((p) => p.name).join(' ')})`;
  let f = form;
  if (headed(f, 'function') || headed(f, 'quote')) {
    const inner = items(f)!;
    if (inner.length !== 2) fail(`${printValue(f)} takes one function`, f, "write #'name or #'(lambda (…) …)");
    f = inner[1]!;
    if (headed(form, 'quote') && f.kind !== 'symbol') fail(`'${printValue(f)} is a list, not a function name`, f, "write #'(lambda (…) …)");
  }
  if (f.kind === 'symbol') {
    const name = symbolName(f)!;
    const fn = FUNCTIONS[name];
    if (!fn) return fail(SPECIAL.includes(name) ? `#'${name} is read only in a call, e.g. (lambda (x) (${name} …))` : `unknown function ${name}`, f);
    const n = sig.params.length;
    if (n < fn.min || n > fn.max) fail(`${name} takes ${fn.min === fn.max ? fn.min : `${fn.min} or more`} argument${fn.max === 1 ? '' : 's'}; ${callShape}`, f, `write #'(lambda (${sig.params.map((p) => p.name).join(' ')}) …)`);
    return (args) => fn.run([...args]) !== null;
  }
  if (!headed(f, 'lambda')) return fail(`expected a function, got ${printValue(f)}`, f, "write #'name or #'(lambda (…) …)");
  const [, params, ...body] = items(f)!;
  const names = params && items(params);
  if (!names) return fail('a lambda needs a list of parameters', params ?? f, `write (lambda (${sig.params.map((p) => p.name).join(' ')}) …)`);
  const scope = new Map<string, { index: number; kind: ParamKind }>();
  for (const p of names) {
    const name = symbolName(p);
    if (name === undefined || name.startsWith(':') || name === 't' || name === 'nil') return fail(`a parameter must be a name, got ${printValue(p)}`, p);
    if (name.startsWith('&')) return fail(`${name} is not read in a lambda list`, p, callShape);
    if (scope.has(name)) fail(`parameter ${name} twice`, p);
    scope.set(name, { index: scope.size, kind: sig.params[scope.size]?.kind ?? 'any' });
  }
  if (names.length !== sig.params.length) fail(`the lambda takes ${names.length} parameter${names.length === 1 ? '' : 's'}; ${callShape}`, params!, `write (lambda (${sig.params.map((p) => p.name).join(' ')}) …)`);
  while (body[0] && headed(body[0], 'declare')) {
    for (const d of items(body[0])!.slice(1)) {
      const [what, ...syms] = items(d) ?? [];
      if (!what || !['ignore', 'ignorable'].includes(symbolName(what) ?? '') || !syms.every((s) => scope.has(symbolName(s) ?? ''))) {
        fail(`only (declare (ignore PARAMETER …)) is read, got ${printValue(d)}`, d, 'remove the declaration');
      }
    }
    body.shift();
  }

  const expect = (e: Expr, want: Kind | undefined, op: string, at: Value): Expr => {
    if (want && e.kind !== 'any' && e.kind !== want && !(want === 'string' && e.kind === 'boolean')) {
      const fix = want === 'url' || e.kind === 'url' ? callShape : 'string=, string-equal and search compare text; = /= < > <= >= compare numbers';
      fail(`${op} takes ${want === 'url' ? 'a URL' : `${want}s`}, and ${printValue(at)} is ${e.kind === 'url' ? 'a URL' : `a ${e.kind}`}`, at, fix);
    }
    return e;
  };

  const expr = (v: Value): Expr => {
    switch (v.kind) {
      case 'number': return { kind: 'number', run: () => v.value };
      case 'string': return { kind: 'string', run: () => v.value };
      case 'symbol': {
        const name = symbolName(v)!;
        if (name === 't') return { kind: 'boolean', run: () => true };
        if (name === 'nil') return { kind: 'any', run: () => null };
        const p = scope.get(name);
        if (!p) return fail(`unknown variable ${name}`, v, `the lambda's parameters are ${[...scope.keys()].join(', ') || 'none'}`);
        const kind: Kind = p.kind === 'text' ? 'string' : p.kind === 'boolean' ? 'any' : p.kind;
        return { kind, run: (env) => env[p.index]! };
      }
      case 'list': return call(v);
    }
  };

  const call = (v: Value & { kind: 'list' }): Expr => {
    const [head, ...rest] = v.items;
    const name = head && symbolName(head);
    if (name === undefined) return fail(`expected a call (FUNCTION ARGUMENT …), got ${printValue(v)}`, v);
    if (name === 'and' || name === 'or') {
      const xs = rest.map(expr);
      return name === 'and'
        ? { kind: 'any', run: (env) => xs.reduce<Datum>((acc, x) => (acc === null ? null : x.run(env)), true) }
        : { kind: 'any', run: (env) => { for (const x of xs) { const d = x.run(env); if (d !== null) return d; } return null; } };
    }
    if (name === 'if') {
      if (rest.length < 2 || rest.length > 3) fail('if takes a test, a then and an optional else', v);
      const [test, then, otherwise] = rest.map(expr);
      return { kind: 'any', run: (env) => (test!.run(env) !== null ? then!.run(env) : otherwise ? otherwise.run(env) : null) };
    }
    if (name === 'search') return search(v, rest);
    const fn = FUNCTIONS[name];
    if (!fn) {
      const why = ['function', 'quote', 'lambda'].includes(name) ? `${name} is read only as the predicate itself` : `unknown function ${name}`;
      return fail(why, head!, SUPPORTED);
    }
    const keyword = rest.find((x) => symbolName(x)?.startsWith(':'));
    if (keyword) fail(`${name} takes no keyword arguments here, got ${printValue(keyword)}`, keyword);
    if (rest.length < fn.min || rest.length > fn.max) {
      fail(`${name} takes ${fn.min === fn.max ? fn.min : `${fn.min} or more`} argument${fn.max === 1 ? '' : 's'}, got ${rest.length}`, v);
    }
    const args = rest.map((x) => expect(expr(x), fn.takes, name, x));
    return { kind: fn.returns, run: (env) => fn.run(args.map((a) => a.run(env))) };
  };

  const search = (v: Value, rest: Value[]): Expr => {
    if (rest.length !== 2 && rest.length !== 4) fail('search takes NEEDLE HAYSTACK and an optional :test FUNCTION', v);
    const [needle, haystack] = rest.slice(0, 2).map((x) => expect(expr(x), 'string', 'search', x));
    let ignoreCase = false;
    if (rest.length === 4) {
      const [key, test] = rest.slice(2) as [Value, Value];
      if (symbolName(key) !== ':test') fail(`search reads only :test, got ${printValue(key)}`, key, "write (search NEEDLE HAYSTACK :test #'char-equal), or leave :test out");
      const fnName = (headed(test, 'function') || headed(test, 'quote')) && items(test)!.length === 2 ? symbolName(items(test)![1]!) : undefined;
      if (fnName === undefined || !(fnName in SEARCH_TESTS)) {
        fail(`search's :test must be one of ${Object.keys(SEARCH_TESTS).map((t) => `#'${t}`).join(' ')}, got ${printValue(test)}`, test, "#'char-equal and #'equalp ignore case; the others keep it");
      }
      ignoreCase = SEARCH_TESTS[fnName!]!;
    }
    return { kind: 'any', run: (env) => searchIn(needle!.run(env), haystack!.run(env), ignoreCase) };
  };

  const exprs = body.map(expr);
  return (args) => exprs.reduce<Datum>((_, e) => e.run(args), null) !== null;
}

function searchIn(needle: Datum, haystack: Datum, ignoreCase: boolean): Datum {
  // nil is the empty sequence in CL, so an absent header searches nothing.
  const h = haystack === null ? '' : haystack;
  const n = needle === null ? '' : needle;
  if (typeof n !== 'string' || typeof h !== 'string') throw new LispTypeError(`search takes strings, got ${show(typeof n !== 'string' ? n : h)}`);
  let at: number;
  if (!ignoreCase) at = h.indexOf(n);
  else {
    const hl = h.toLowerCase();
    const nl = n.toLowerCase();
    // Lower-casing keeps positions unless a character changes length (rare); then compare one by one.
    at = hl.length === h.length && nl.length === n.length ? hl.indexOf(nl) : slowSearch(h, n);
  }
  return at < 0 ? null : at;
}

function slowSearch(h: string, n: string): number {
  const eq = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let j = 0; j < n.length; j++) if (!eq(h[i + j]!, n[j]!)) continue outer;
    return i;
  }
  return -1;
}
