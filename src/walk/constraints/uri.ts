/**
 * The context and URI constraints of the W4 paper's appendix A: decided from the walk's state and
 * the URL alone, with no network access and no DNS lookup.
 */
import { constraint, need, type Candidate, type Constraint } from './constraint.js';
import { compilePredicate } from './predicate.js';

/** The parts of a URL's path as CL-HTTP splits them: directories, then the object's name and extension. */
export interface PathParts {
  directories: string[];
  /** Undefined for a path (a URL ending in /), which is not an object. */
  name?: string;
  extension?: string;
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function pathParts(url: URL): PathParts {
  const segs = url.pathname.split('/').slice(1).map(decode);
  const last = segs.pop() ?? '';
  const directories = segs.filter((s) => s !== '');
  if (last === '') return { directories };
  const dot = last.lastIndexOf('.');
  return dot > 0 ? { directories, name: last.slice(0, dot), extension: last.slice(dot + 1) } : { directories, name: last };
}

const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const startsWithList = (a: readonly string[], prefix: readonly string[]) => prefix.length <= a.length && prefix.every((x, i) => x === a[i]);
const show = (xs: readonly (string | number)[]) => (xs.length === 1 ? String(xs[0]) : `(${xs.join(' ')})`);
const DEFAULT_PORTS: { [scheme: string]: number } = { http: 80, https: 443, ftp: 21, ws: 80, wss: 443, gopher: 70 };
const scheme = (u: URL) => u.protocol.replace(/:$/, '').toLowerCase();

/** "Succeeds while recursive Web walking is less than or equal to DEPTH." Seeds are depth 0. */
export const depth = (n: number): Constraint => constraint(`depth ${n}`, 'context', (c) => c.depth <= n);

/** "Succeeds for URIs that have not been walked during the current activity": none of its ancestors is it. */
export const noCycles = (): Constraint =>
  constraint('no-cycles', 'uri', (c) => {
    const href = withoutFragment(c.url.href);
    return !need(c, 'path', 'uri').some((p) => withoutFragment(p) === href);
  });

const withoutFragment = (href: string) => href.replace(/#.*$/, '');

/**
 * "Succeeds when the URI is of class CLASS", the object class for the URI scheme: `SCHEME-url` for
 * any URL of that scheme, and for http and https `http-object` (names a file), `http-path` (ends
 * in /) or `http-search` (has a query).
 */
export function uriClass(classes: readonly string[]): Constraint {
  const want = lower(classes);
  return constraint(`uri-class ${show(want)}`, 'uri', (c) => uriClassesOf(c.url).some((k) => want.includes(k)));
}

export function uriClassesOf(url: URL): string[] {
  const s = scheme(url);
  const out = [`${s}-url`];
  if (s === 'http' || s === 'https') {
    if (url.search !== '') out.push('http-search');
    else out.push(pathParts(url).name === undefined ? 'http-path' : 'http-object');
  }
  return out;
}

/** "Succeeds when the URI directory components are exactly the same as DIRECTORY-PATH … case insensitive." */
export function uriDirectoryPath(dirs: readonly string[]): Constraint {
  const want = lower(dirs);
  return constraint(`uri-directory-path ${show(dirs)}`, 'uri', (c) => sameList(lower(pathParts(c.url).directories), want));
}

/** "Succeeds when the URI directory components are subsumed by DIRECTORY-PATH … case insensitive." */
export function uriSubsumedByDirectoryPath(dirs: readonly string[]): Constraint {
  const want = lower(dirs);
  return constraint(`uri-subsumed-by-directory-path ${show(dirs)}`, 'uri', (c) =>
    startsWithList(lower(pathParts(c.url).directories), want),
  );
}

/** "Succeeds when the directory components of the URI's parent are subsumed by DIRECTORY-PATH" (case as written). */
export function uriParentSubsumedByDirectoryPath(dirs: readonly string[]): Constraint {
  return constraint(`uri-parent-subsumed-by-directory-path ${show(dirs)}`, 'uri', (c) =>
    startsWithList(pathParts(new URL(need(c, 'referrer', 'uri'))).directories, dirs),
  );
}

/** "Succeeds when extension component of URI is EXTENSION. Fails for URIs that are not objects … case insensitive." */
export function uriExtension(ext: string): Constraint {
  const want = ext.replace(/^\./, '').toLowerCase();
  return constraint(`uri-extension ${want}`, 'uri', (c) => pathParts(c.url).extension?.toLowerCase() === want);
}

/** "Succeeds when name component of URI is NAME. Fails for URIs that are not objects … case insensitive." */
export function uriName(name: string): Constraint {
  const want = name.toLowerCase();
  return constraint(`uri-name ${name}`, 'uri', (c) => pathParts(c.url).name?.toLowerCase() === want);
}

/** "Succeeds when the URI refers to the port PORT. PORT can be a list of port numbers." Default ports count. */
export function uriPort(ports: readonly number[]): Constraint {
  return constraint(`uri-port ${show(ports)}`, 'uri', (c) => ports.includes(effectivePort(c.url)));
}

export const effectivePort = (u: URL): number => (u.port !== '' ? Number(u.port) : DEFAULT_PORTS[scheme(u)] ?? -1);

/** "Succeeds when the URI refers to the scheme SCHEME. SCHEME can be a list of URI schemes." */
export function uriScheme(schemes: readonly string[]): Constraint {
  const want = lower(schemes);
  return constraint(`uri-scheme ${show(want)}`, 'uri', (c) => want.includes(scheme(c.url)));
}

/** "Succeeds when SUBSTRING is found anywhere in the fully qualified URI namestring. This is case insensitive." */
export function uriSearch(substring: string): Constraint {
  const want = substring.toLowerCase();
  return constraint(`uri-search ${JSON.stringify(substring)}`, 'uri', (c) => c.url.href.toLowerCase().includes(want));
}

/** The fields uri-satisfies may test. */
export const URI_FIELDS = ['href', 'scheme', 'host', 'port', 'path', 'query', 'fragment', 'name', 'extension', 'depth'] as const;

/**
 * "Applies PREDICATE to the URI object": a predicate-language text over URI_FIELDS, or a function
 * of the URL (the paper's Lisp, translated).
 */
export function uriSatisfies(predicate: string | ((url: URL) => boolean)): Constraint {
  if (typeof predicate !== 'string') return constraint('uri-satisfies #<function>', 'uri', (c) => predicate(c.url));
  const p = compilePredicate(predicate, URI_FIELDS);
  return constraint(`uri-satisfies ${JSON.stringify(predicate)}`, 'uri', (c) => p((f) => uriField(c, f)));
}

function uriField(c: Candidate, f: string): string | number | undefined {
  const u = c.url;
  switch (f) {
    case 'href': return u.href;
    case 'scheme': return scheme(u);
    case 'host': return u.hostname;
    case 'port': return effectivePort(u);
    case 'path': return decode(u.pathname);
    case 'query': return u.search === '' ? undefined : u.search.slice(1);
    case 'fragment': return u.hash === '' ? undefined : u.hash.slice(1);
    case 'name': return pathParts(u).name;
    case 'extension': return pathParts(u).extension;
    default: return c.depth;
  }
}
