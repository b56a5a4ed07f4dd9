import { UserError } from '../errors.js';

/** Where a store lives, parsed from `--db`. */
export type DbTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'mysql'; host: string; port: number; user: string; password: string; database: string };

const FORMS = 'sqlite:PATH (or sqlite::memory:) or mysql://user:pass@host:port/db';

function bad(value: string, why: string): UserError {
  return new UserError(`--db ${why}`, { value: redact(value), fix: `give ${FORMS}` });
}

/** The address with its password hidden, for messages. */
export function redact(value: string): string {
  return value.replace(/^(mysql:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}

export function parseDbUrl(value: string): DbTarget {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path === '') throw bad(value, 'names no SQLite file');
    return { kind: 'sqlite', path };
  }
  if (!/^mysql:\/\//i.test(value)) throw bad(value, 'is not a database address');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(value, 'is not a valid MySQL address');
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname) throw bad(value, 'names no MySQL host');
  if (!database) throw bad(value, 'names no MySQL database after the host');
  // The name goes into CREATE DATABASE, so it is held to what needs no quoting.
  if (!/^[A-Za-z0-9_$]{1,64}$/.test(database)) throw bad(value, 'has a database name other than letters, digits, _ and $');
  const port = url.port === '' ? 3306 : Number(url.port);
  return {
    kind: 'mysql',
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    user: decodeURIComponent(url.username) || 'root',
    password: decodeURIComponent(url.password),
    database,
  };
}
