/**
 * The constraint vocabulary of the W4 paper's appendix A, as the activity files name it: each
 * entry's cost class, argument shapes and how its arguments (as written, in either form) become
 * the predicate in src/walk/constraints. Aliases keep the paper's other spellings working.
 */
import type { Constraint, CostClass } from '../constraints/constraint.js';
import * as H from '../constraints/header.js';
import * as U from '../constraints/uri.js';
import { uriHost, uriReferrerHost } from '../constraints/dns.js';
import { COMPARATORS, PredicateSyntaxError } from '../constraints/predicate.js';
import { toSeconds, toUniversal } from '../constraints/time.js';
import { ActivityError } from './errors.js';
import { compileLispFunction, lispForm, LispUrl, type LispFunction, type Signature } from './lisp.js';
import { printValue } from './sexpr.js';
import { isNil, isSymbol, type Value } from './spec.js';

export type ArgKind = 'count' | 'comparator' | 'time' | 'duration' | 'boolean' | 'content-type' | 'path' | 'names' | 'ports' | 'text' | 'predicate';

export interface ArgType {
  name: string;
  kind: ArgKind;
  optional?: boolean;
  /** For a predicate: how the constraint calls it when it is a Lisp function (the paper's call). */
  calls?: Signature;
}

export interface ConstraintType {
  name: string;
  cost: CostClass;
  args: readonly ArgType[];
  build(args: readonly unknown[]): Constraint;
}

const a = (name: string, kind: ArgKind, optional = false): ArgType => ({ name, kind, optional });
const predicate = (caller: string, ...params: Signature['params']): ArgType => ({ name: 'predicate', kind: 'predicate', calls: { caller, params } });
/** A coerced predicate is predicate-language text, or a translated Lisp function to call as the constraint calls it. */
const lisp = <T>(x: unknown, text: (s: string) => T, fn: (f: LispFunction) => T): T => (typeof x === 'string' ? text(x) : fn(x as LispFunction));
const s = (x: unknown) => x as string;
const n = (x: unknown) => x as number;
const list = <T>(x: unknown) => x as T[];

export const CONSTRAINT_TYPES: readonly ConstraintType[] = [
  { name: 'depth', cost: 'context', args: [a('depth', 'count')], build: ([d]) => U.depth(n(d)) },
  { name: 'no-cycles', cost: 'uri', args: [], build: () => U.noCycles() },
  { name: 'uri-class', cost: 'uri', args: [a('class', 'names')], build: ([x]) => U.uriClass(list(x)) },
  { name: 'uri-directory-path', cost: 'uri', args: [a('directory-path', 'path')], build: ([x]) => U.uriDirectoryPath(list(x)) },
  { name: 'uri-extension', cost: 'uri', args: [a('extension', 'text')], build: ([x]) => U.uriExtension(s(x)) },
  { name: 'uri-name', cost: 'uri', args: [a('name', 'text')], build: ([x]) => U.uriName(s(x)) },
  { name: 'uri-parent-subsumed-by-directory-path', cost: 'uri', args: [a('directory-path', 'path')], build: ([x]) => U.uriParentSubsumedByDirectoryPath(list(x)) },
  { name: 'uri-port', cost: 'uri', args: [a('port', 'ports')], build: ([x]) => U.uriPort(list(x)) },
  {
    name: 'uri-satisfies', cost: 'uri', args: [predicate('uri-satisfies', { name: 'uri', kind: 'url' })],
    build: ([x]) => U.uriSatisfies(lisp<string | ((url: URL) => boolean)>(x, (t) => t, (f) => (url: URL) => f([new LispUrl(url)]))),
  },
  { name: 'uri-scheme', cost: 'uri', args: [a('scheme', 'names')], build: ([x]) => U.uriScheme(list(x)) },
  { name: 'uri-search', cost: 'uri', args: [a('substring', 'text')], build: ([x]) => U.uriSearch(s(x)) },
  { name: 'uri-subsumed-by-directory-path', cost: 'uri', args: [a('directory-path', 'path')], build: ([x]) => U.uriSubsumedByDirectoryPath(list(x)) },
  { name: 'uri-host', cost: 'dns', args: [a('host', 'names')], build: ([x]) => uriHost(list(x)) },
  { name: 'uri-referrer-host', cost: 'dns', args: [a('host', 'names')], build: ([x]) => uriReferrerHost(list(x)) },
  { name: 'header-content-length', cost: 'header', args: [a('comparator', 'comparator'), a('size', 'count')], build: ([o, x]) => H.headerContentLength(s(o), n(x)) },
  { name: 'header-content-length-upto', cost: 'header', args: [a('size', 'count'), a('default', 'boolean', true)], build: ([x, d]) => H.headerContentLengthUpto(n(x), d === undefined ? true : (d as boolean)) },
  { name: 'header-content-type', cost: 'header', args: [a('content-type-spec', 'content-type')], build: ([x]) => H.headerContentType(list(x)) },
  { name: 'header-expires', cost: 'header', args: [a('comparator', 'comparator'), a('universal-time', 'time')], build: ([o, t]) => H.headerExpires(s(o), n(t)) },
  { name: 'header-last-modified', cost: 'header', args: [a('comparator', 'comparator'), a('universal-time', 'time')], build: ([o, t]) => H.headerLastModified(s(o), n(t)) },
  {
    name: 'header-predicate', cost: 'header', args: [a('header-keyword', 'text'), predicate('header-predicate', { name: 'value', kind: 'any' }, { name: 'available-p', kind: 'boolean' })],
    build: ([h, x]) => H.headerPredicate(s(h), lisp<string | H.HeaderTest>(x, (t) => t, (f) => (value, found) => f([value ?? null, found || null]))),
  },
  { name: 'header-resource-age', cost: 'header', args: [a('minimum', 'duration'), a('maximum', 'duration')], build: ([lo, hi]) => H.headerResourceAge(n(lo), n(hi)) },
  { name: 'header-robots-allowed', cost: 'header', args: [], build: () => H.headerRobotsAllowed() },
  { name: 'header-server', cost: 'header', args: [predicate('header-server', { name: 'server', kind: 'text' })], build: ([x]) => H.headerServer(lisp<string | H.TextTest>(x, (t) => t, (f) => (server) => f([server]))) },
  { name: 'resource-search', cost: 'resource', args: [a('substring', 'text')], build: ([x]) => H.resourceSearch(s(x)) },
  { name: 'resource-satisfies', cost: 'resource', args: [predicate('resource-satisfies', { name: 'body', kind: 'text' })], build: ([x]) => H.resourceSatisfies(lisp<string | H.TextTest>(x, (t) => t, (f) => (body) => f([body]))) },
];

/** The paper's other spellings: the 1996 proceedings call header-predicate header-satisfies; the locator's form writes url-search. */
export const ALIASES: { readonly [alias: string]: string } = { 'header-satisfies': 'header-predicate', 'url-search': 'uri-search' };

export const CONSTRAINT_NAMES: readonly string[] = [...CONSTRAINT_TYPES.map((t) => t.name), ...Object.keys(ALIASES)];

export function constraintType(name: string): ConstraintType | undefined {
  const real = ALIASES[name] ?? name;
  return CONSTRAINT_TYPES.find((t) => t.name === real);
}

/** A string as written, or a symbol without its keyword colon (`:html` → `html`): free text such as a substring. */
const text = (v: Value): string | undefined => (v.kind === 'string' ? v.value : v.kind === 'symbol' ? v.value.replace(/^:/, '') : undefined);
/**
 * A name (scheme, class, host, content type): JSON can only write the paper's keywords as strings,
 * so `":http"` and `:http` both mean http.
 */
const keyword = (v: Value): string | undefined => (v.kind === 'string' || v.kind === 'symbol' ? v.value.replace(/^:/, '') : undefined);
const keywords = (v: Value, one = keyword): string[] | undefined => {
  const xs = v.kind === 'list' ? v.items.map(one) : [one(v)];
  return xs.length > 0 && xs.every((x) => x !== undefined && x !== '') ? (xs as string[]) : undefined;
};
const contentType = (v: Value): string | undefined => {
  if (v.kind === 'string' && v.value.includes('/')) return v.value;
  if (v.kind === 'string' || v.kind === 'symbol') return `${keyword(v)}/*`;
  if (v.kind !== 'list') return undefined;
  const parts = v.items.map(keyword);
  return parts.length >= 1 && parts.length <= 2 && parts.every((x) => x) ? `${parts[0]}/${parts[1] ?? '*'}` : undefined;
};

/** Turns one written argument into the value the builder takes, or says what was expected. */
export function coerce(arg: ArgType, v: Value, file?: string): unknown {
  const kind = arg.kind;
  const fail = (expected: string): never => {
    throw new ActivityError('bad-argument', `expected ${expected}`, { file, at: v.at }, `got ${printValue(v)}`);
  };
  switch (kind) {
    case 'count':
      return v.kind === 'number' && Number.isInteger(v.value) && v.value >= 0 ? v.value : fail('a whole number, 0 or more');
    case 'comparator': {
      const op = text(v);
      return op !== undefined && COMPARATORS.includes(op) ? op : fail(`a comparator: ${COMPARATORS.join(' ')}`);
    }
    case 'time': {
      const t = v.kind === 'number' || v.kind === 'string' ? toUniversal(v.value) : undefined;
      return t ?? fail('a universal time (seconds since 1900, e.g. 3029461200) or an ISO date ("1996-01-01")');
    }
    case 'duration': {
      const t = v.kind === 'number' || v.kind === 'string' ? toSeconds(v.value) : undefined;
      return t ?? fail('an age in seconds, or an ISO duration ("P30D")');
    }
    case 'boolean':
      return isSymbol(v, 't') ? true : isNil(v) ? false : fail('t or nil');
    case 'content-type': {
      const specs = v.kind === 'list' && v.items.length > 0 && v.items.every((x) => x.kind === 'list') ? v.items.map(contentType) : [contentType(v)];
      return specs.every((x) => x) ? specs : fail('a content type, e.g. (:text :html) or "text/html"');
    }
    case 'path': {
      const dirs = v.kind === 'string' ? v.value.split('/').filter((x) => x !== '') : v.kind === 'list' ? keywords(v, text) : undefined;
      return dirs ?? fail('a list of directory names, e.g. ("docs" "w4")');
    }
    case 'names':
      return keywords(v) ?? fail('a name or a list of names');
    case 'ports': {
      const xs = v.kind === 'list' ? v.items : [v];
      const ok = xs.length > 0 && xs.every((x) => x.kind === 'number' && Number.isInteger(x.value) && x.value > 0 && x.value < 65536);
      return ok ? xs.map((x) => (x as { value: number }).value) : fail('a port number or a list of them');
    }
    case 'text': {
      const t = text(v);
      return t !== undefined && t !== '' ? t : fail('a word or a "string"');
    }
    case 'predicate': {
      const form = lispForm(v, file, true);
      if (form) return compileLispFunction(form, arg.calls!, file);
      return v.kind === 'string' ? v.value : fail(`a predicate: a Lisp function, e.g. #'(lambda (${arg.calls!.params.map((x) => x.name).join(' ')}) …), or a "string", e.g. "matches /apache/i"`);
    }
  }
}

const PREDICATE_HELP =
  'a predicate is tests joined by and, or, not: present, absent, < <= > >= = /= VALUE, matches /re/i, contains "s", starts-with "s", ends-with "s"';

/** Builds the predicate; a predicate-language mistake is reported at its column in the file. */
export function buildLeaf(type: ConstraintType, args: readonly unknown[], predicateArg: Value | undefined, file?: string): Constraint {
  try {
    return type.build(args);
  } catch (err) {
    if (!(err instanceof PredicateSyntaxError) || !predicateArg?.at) throw err;
    const at = { line: predicateArg.at.line, col: predicateArg.at.col + 1 + err.offset };
    throw new ActivityError('bad-argument', `predicate: ${err.message}`, { file, at }, PREDICATE_HELP);
  }
}
