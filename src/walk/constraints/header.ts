/**
 * The header constraints of the W4 paper (they need a HEAD, or the headers of a GET) and its one
 * resource constraint (it needs the body). A header that is not there makes the constraint fail
 * as the paper says ("returns NIL"); headers that were never fetched are a MissingFact.
 */
import { constraint, need, type Candidate, type Constraint } from './constraint.js';
import { applyOp, compilePredicate } from './predicate.js';
import { httpDateToUniversal, msToUniversal } from './time.js';

export function header(c: Candidate, name: string): string | undefined {
  const headers = need(c, 'headers', 'header');
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want) return v;
  return undefined;
}

const contentLength = (c: Candidate): number | undefined => {
  const v = header(c, 'content-length');
  return v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
};

/** "Applies COMPARATOR to the CONTENT-LENGTH and SIZE." A missing length fails every comparison. */
export function headerContentLength(op: string, size: number): Constraint {
  return constraint(`header-content-length ${op} ${size}`, 'header', (c) => {
    const n = contentLength(c);
    return n !== undefined && applyOp(op, n, size);
  });
}

/** "Succeeds if the content-length is less than or equal to SIZE. When content-length is unavailable, it succeeds when DEFAULT is non-null." */
export function headerContentLengthUpto(size: number, dflt = true): Constraint {
  return constraint(`header-content-length-upto ${size}${dflt ? '' : ' nil'}`, 'header', (c) => {
    const n = contentLength(c);
    return n === undefined ? dflt : n <= size;
  });
}

/** "Succeeds when the content type for the resource matches CONTENT-TYPE-SPEC" (`text/html`, `text/*`; any of a list). */
export function headerContentType(specs: readonly string[]): Constraint {
  const want = specs.map((s) => s.toLowerCase().split('/') as [string, string?]);
  return constraint(`header-content-type ${specs.join(' ')}`, 'header', (c) => {
    const v = header(c, 'content-type');
    if (v === undefined) return false;
    const [type = '', sub = ''] = v.split(';')[0]!.trim().toLowerCase().split('/');
    return want.some(([t, s]) => (t === '*' || t === type) && (s === undefined || s === '*' || s === sub));
  });
}

const dateConstraint = (name: string, field: string) => (op: string, universal: number): Constraint =>
  constraint(`${name} ${op} ${universal}`, 'header', (c) => {
    const t = httpDateToUniversal(header(c, field));
    return t !== undefined && applyOp(op, t, universal);
  });

/** "Applies COMPARATOR to the EXPIRES date and UNIVERSAL-TIME. Returns NIL if the EXPIRES is not available." */
export const headerExpires = dateConstraint('header-expires', 'expires');

/** "Applies COMPARATOR to the LAST-MODIFIED date and UNIVERSAL-TIME. Returns NIL if LAST-MODIFIED is not available." */
export const headerLastModified = dateConstraint('header-last-modified', 'last-modified');

const DATE_HEADERS = new Set(['date', 'expires', 'last-modified', 'if-modified-since', 'if-unmodified-since']);
const INTEGER_HEADERS = new Set(['content-length', 'age', 'max-forwards']);

/**
 * A predicate the activity gave as a function (the paper's Lisp, translated), called as the paper's
 * constraint calls it. A string is a predicate-language text instead.
 */
export type HeaderTest = (value: string | number | undefined, found: boolean) => boolean;
export type TextTest = (text: string) => boolean;

/** A predicate-language text over one value. */
const language = (src: string): ((v: string | number | undefined) => boolean) => {
  const p = compilePredicate(src, [], 'value');
  return (v) => p(() => v);
};
const shown = (predicate: string | ((...xs: never[]) => boolean)) => (typeof predicate === 'string' ? JSON.stringify(predicate) : '#<function>');

/**
 * "Applies PREDICATE to the parsed value of header-keyword and whether the header was available":
 * date headers are parsed to universal time; for a function, the integer headers to numbers too
 * (CL-HTTP's parsed values), while the predicate language compares their text as numbers itself.
 */
export function headerPredicate(name: string, predicate: string | HeaderTest): Constraint {
  const field = name.replace(/^:/, '').toLowerCase();
  const test: HeaderTest = typeof predicate === 'string' ? language(predicate) : predicate;
  const integers = typeof predicate !== 'string' && INTEGER_HEADERS.has(field);
  return constraint(`header-predicate ${field} ${shown(predicate)}`, 'header', (c) => {
    const raw = header(c, field);
    const value = DATE_HEADERS.has(field) ? httpDateToUniversal(raw) ?? raw : integers && raw !== undefined && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
    return test(value, raw !== undefined);
  });
}

/** "Applies PREDICATE to the SERVER header. Returns NIL if the SERVER is not available." */
export function headerServer(predicate: string | TextTest): Constraint {
  const test = typeof predicate === 'string' ? language(predicate) : predicate;
  return constraint(`header-server ${shown(predicate)}`, 'header', (c) => {
    const v = header(c, 'server');
    return v !== undefined && test(v);
  });
}

/**
 * "Succeeds when the resource age is between (or equal to) MINIMUM and MAXIMUM. Fails if
 * LAST-MODIFIED header is not available." Ages in seconds, against the walk's clock.
 */
export function headerResourceAge(minimum: number, maximum: number): Constraint {
  return constraint(`header-resource-age ${minimum} ${maximum}`, 'header', (c) => {
    const modified = httpDateToUniversal(header(c, 'last-modified'));
    if (modified === undefined) return false;
    const age = msToUniversal(need(c, 'now', 'header')) - modified;
    return age >= minimum && age <= maximum;
  });
}

/** "Succeeds when robots are allowed on the host in URI." The engine asks robots.txt and fills robotsAllowed. */
export const headerRobotsAllowed = (): Constraint =>
  constraint('header-robots-allowed', 'header', (c) => need(c, 'robotsAllowed', 'header'));

const TEXTUAL = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:xml|json)\b|application\/xhtml\+xml|application\/javascript)/;

/** "Succeeds when SUBSTRING is found in the content of resource. Fails if the content is not text. This is case insensitive." */
export function resourceSearch(substring: string): Constraint {
  const want = substring.toLowerCase();
  return constraint(`resource-search ${JSON.stringify(substring)}`, 'resource', (c) => {
    const body = need(c, 'body', 'resource');
    const type = c.headers ? header(c, 'content-type') : undefined;
    if (type !== undefined && !TEXTUAL.test(type.trim().toLowerCase())) return false;
    return body.toLowerCase().includes(want);
  });
}

/** "Applies PREDICATE to the body of an HTML resource" (1996 proceedings); fails for a body that is not text. */
export function resourceSatisfies(predicate: string | TextTest): Constraint {
  const test = typeof predicate === 'string' ? language(predicate) : predicate;
  return constraint(`resource-satisfies ${shown(predicate)}`, 'resource', (c) => {
    const body = need(c, 'body', 'resource');
    const type = c.headers ? header(c, 'content-type') : undefined;
    return (type === undefined || TEXTUAL.test(type.trim().toLowerCase())) && test(body);
  });
}
