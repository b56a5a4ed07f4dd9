import { UserError } from '../errors.js';

/** Where a store lives, parsed from `--db`. */
export type DbTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'mysql'; servers: MysqlServer[]; user: string; password: string; database: string };

/** One server of a MySQL address; several are the nodes of one cluster, tried in the order given. */
export interface MysqlServer {
  host: string;
  port: number;
  /** The Unix socket of a server on this machine (`?socket=PATH`), used instead of host and port. */
  socket?: string;
}

const FORMS = "sqlite:PATH (or sqlite::memory:) or mysql://user:pass@host:port/db (several servers as host1:port,host2:port; a local server's socket as ?socket=PATH)";

function bad(value: string, why: string): UserError {
  return new UserError(`--db ${why}`, { value: redact(value), fix: `give ${FORMS}` });
}

/** A MySQL address split before URL parsing, so that a password may hold raw `@`, `/`, `:` or `?`. */
interface MysqlParts {
  user: string;
  /** Undefined when the address has no `user:` part. */
  password: string | undefined;
  /** host[:port]/database, what follows the userinfo. */
  rest: string;
}

/**
 * The userinfo of a MySQL address ends at its last `@` (a database name holds no `@`), and the
 * user name at the first `:` of it: so a password written raw, with `@`, `/` or `:` in it, is
 * still all password, and never mistaken for the host.
 */
function splitMysql(value: string): MysqlParts | undefined {
  if (!/^mysql:\/\//i.test(value)) return undefined;
  const body = value.slice('mysql://'.length);
  const at = body.lastIndexOf('@');
  if (at < 0) return { user: '', password: undefined, rest: body };
  const info = body.slice(0, at);
  const colon = info.indexOf(':');
  return { user: colon < 0 ? info : info.slice(0, colon), password: colon < 0 ? undefined : info.slice(colon + 1), rest: body.slice(at + 1) };
}

/** Percent-decoding that keeps a stray `%` as written (a raw password may hold one). */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Schemes anwc or mysql2 take, with any number of slashes, none included (`mysql:u:pw@h/db`); any scheme with `//`. */
const SCHEME = /^(?:(?:mysql|mariadb|smtps?|https?):\/*|[a-z][a-z0-9+.-]*:\/\/)/i;
/** Options that carry a secret: mysql2's password, password1-3, passwordSha1, and any pwd, token, key… */
const SECRET_OPTION = /pass|pwd|secret|token|key|auth|cred|ssl/i;

/** Where the password of the userinfo ending at `at` lies: after the user name's `:`. */
function userinfoSecret(value: string, at: number): [number, number] | undefined {
  const colonFrom = (start: number) => {
    const c = value.indexOf(':', start);
    return c >= 0 && c < at ? c : undefined;
  };
  const scheme = SCHEME.exec(value);
  if (scheme) {
    const c = colonFrom(scheme[0].length);
    return c === undefined ? undefined : [c + 1, at];
  }
  // No scheme, or what may as well be a user name (`ane:/pw@h`): all from the first colon is
  // hidden. A sentence ("Invalid login: 535 … a@b") has a space before its colon.
  const c = colonFrom(0);
  return c !== undefined && !/\s/.test(value.slice(0, c)) ? [c + 1, at] : undefined;
}

/**
 * The address with its secrets hidden, for every message, log line and listing: the one place
 * that knows how, for database addresses and any other URL with userinfo (an SMTP server's).
 * It reads the address as loosely as anything that may have accepted or mistyped it (one slash
 * or none after the scheme, raw `@ / : ?` in the password, a password given as an option), and
 * hides too much rather than too little: everything after the user name's `:` up to the last
 * `@`, and the value of every option whose name speaks of a secret. `sqlite:` paths are kept.
 */
export function redact(value: string): string {
  if (/^sqlite:/i.test(value)) return value;
  const hidden: [number, number][] = [];
  const at = value.lastIndexOf('@');
  const password = at < 0 ? undefined : userinfoSecret(value, at);
  if (password) hidden.push(password);
  const q = value.indexOf('?');
  if (q >= 0) {
    let i = q + 1;
    for (const pair of value.slice(q + 1).split('&')) {
      const eq = pair.indexOf('=');
      if (eq >= 0 && SECRET_OPTION.test(decode(pair.slice(0, eq)))) hidden.push([i + eq + 1, i + pair.length]);
      i += pair.length + 1;
    }
  }
  if (hidden.length === 0) return value;
  hidden.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [a, b] of hidden) {
    if (b < from) continue;
    out += a >= from ? `${value.slice(from, a)}***` : '';
    from = Math.max(from, b);
  }
  return out + value.slice(from);
}

export function parseDbUrl(value: string): DbTarget {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '') throw bad(value, 'names no SQLite file');
    return { kind: 'sqlite', path };
  }
  const parts = splitMysql(value);
  if (!parts) throw bad(value, 'is not a database address');
  const slash = parts.rest.indexOf('/');
  const hostList = slash < 0 ? parts.rest : parts.rest.slice(0, slash);
  const servers = hostList.split(',').map((h) => parseServer(value, h));
  // The database name is read off the first server's URL, so its decoding is the URL parser's.
  const url = new URL(`mysql://${hostList.split(',')[0]}${slash < 0 ? '' : parts.rest.slice(slash)}`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw bad(value, 'names no MySQL database after the host');
  // The name goes into CREATE DATABASE, so it is held to what needs no quoting.
  if (!/^[A-Za-z0-9_$]{1,64}$/.test(database)) throw bad(value, 'has a database name other than letters, digits, _ and $');
  const socket = socketOption(value, url.searchParams);
  if (socket !== undefined) {
    if (servers.length > 1) throw bad(value, 'names a socket and several servers; a socket reaches the one server on this machine');
    servers[0]!.socket = socket;
  }
  return {
    kind: 'mysql',
    servers,
    user: decode(parts.user) || 'root',
    password: decode(parts.password ?? ''),
    database,
  };
}

/**
 * `socket` is the one option: on loopback a query's round trip through TCP costs the crawler and
 * the server more than through a Unix socket (issue: speed). Any other name is refused, not ignored.
 */
function socketOption(value: string, options: URLSearchParams): string | undefined {
  for (const key of options.keys()) {
    if (key !== 'socket') throw bad(value, `has an option ${JSON.stringify(key)}; the one option it takes is socket=PATH`);
  }
  const socket = options.get('socket');
  if (socket === '') throw bad(value, 'names no socket file after socket=');
  return socket ?? undefined;
}

function parseServer(value: string, hostPort: string): MysqlServer {
  if (hostPort === '') throw bad(value, 'names no MySQL host');
  let url: URL;
  try {
    url = new URL(`mysql://${hostPort}/`);
  } catch {
    throw bad(value, 'is not a valid MySQL address');
  }
  if (!url.hostname || url.pathname !== '/' || url.username !== '') throw bad(value, 'is not a valid MySQL address');
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? 3306 : Number(url.port) };
}

/**
 * The same address with its servers rotated to start at the n-th: workers started together
 * spread over the nodes of a cluster, each failing over to the others in turn.
 */
export function startingAt(value: string, n: number): string {
  const parts = splitMysql(value);
  if (!parts) return value;
  const slash = parts.rest.indexOf('/');
  const hosts = parts.rest.slice(0, slash < 0 ? undefined : slash).split(',');
  if (hosts.length < 2) return value;
  const k = n % hosts.length;
  const rotated = [...hosts.slice(k), ...hosts.slice(0, k)].join(',');
  return value.slice(0, value.length - parts.rest.length) + rotated + (slash < 0 ? '' : parts.rest.slice(slash));
}
