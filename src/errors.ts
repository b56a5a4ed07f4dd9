/**
 * Error classes carry the policy (practice 6): a UserError is something the person at the
 * keyboard can fix, so it names where (file:line:col), the value received and the fix.
 * Only src/cli turns errors into text and exit codes.
 */

export interface Where {
  file?: string;
  line?: number;
  col?: number;
}

export interface UserErrorDetails extends Where {
  /** The value that was received, quoted in the message. */
  value?: string;
  /** What to do about it, one short sentence. */
  fix?: string;
}

export class UserError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly value?: string;
  readonly fix?: string;

  constructor(message: string, details: UserErrorDetails = {}) {
    super(message);
    this.name = 'UserError';
    this.file = details.file;
    this.line = details.line;
    this.col = details.col;
    this.value = details.value;
    this.fix = details.fix;
  }

  /**
   * `file:line:col: message (got "value"); fix` — the one line the CLI prints, with what the
   * user's input put in it made printable (see printable).
   */
  toLine(): string {
    const where = formatWhere(this);
    const got = this.value === undefined ? '' : ` (got ${JSON.stringify(this.value)})`;
    const fix = this.fix ? `; ${this.fix}` : '';
    return printable(`${where ? `${where}: ` : ''}${this.message}${got}${fix}`);
  }
}

/**
 * C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides: bytes
 * that a terminal obeys rather than shows (colour, cursor moves, a title, reordered text) or
 * that break the one line.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A message quoting user input (a file's bytes, a flag, a header) as one line a terminal shows as
 * written: each control character escaped as \n, \t, \x1b or \u202e.
 */
export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

export function formatWhere(w: Where): string {
  if (!w.file && w.line === undefined) return '';
  const parts: string[] = [w.file ?? '<input>'];
  if (w.line !== undefined) {
    parts.push(String(w.line));
    if (w.col !== undefined) parts.push(String(w.col));
  }
  return parts.join(':');
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * The database went away and did not come back within the retries (a server restarted or
 * stopped, a connection killed for good, a SQLite file locked by another writer for too long).
 * Not the user's input: the run stops cleanly, keeps what was written, and says so in one line.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The disk or a database file failed under the run: no space left (a full disk, a quota, a file
 * size limit) or a damaged file. Neither the user's input nor a bug of ours: the run stops,
 * what was written before stays written, and the page at hand is not judged, so a rerun once
 * space is freed (or the file restored) finishes the work.
 */
export class StorageFaultError extends Error {
  constructor(
    readonly kind: 'full' | 'damaged',
    message: string,
    override readonly cause?: unknown,
    /** What to do about it, when not the kind's usual fix (free space; restore the file). */
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'StorageFaultError';
  }
}

/** Node's codes for a write refused for want of room. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** MySQL/MariaDB: the table is full (1114), the disk is full (1021), the engine's errno 28 (1030). */
const MYSQL_FULL_ERRNO = new Set([1114, 1021]);
/** MySQL/MariaDB: a table marked crashed (1194, 1195), an index or a page found corrupt (1712, 1877). */
const MYSQL_DAMAGED_ERRNO = new Set([1194, 1195, 1712, 1877]);

/**
 * The storage fault an error from the file system, SQLite or MySQL stands for, or undefined.
 * `where` names the file or database when the error does not (SQLite's do not).
 */
export function storageFault(err: unknown, where?: string): StorageFaultError | undefined {
  if (err instanceof StorageFaultError) return err;
  const e = err as { code?: unknown; errno?: unknown; path?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  const code = typeof e.code === 'string' ? e.code : '';
  const errno = typeof e.errno === 'number' ? e.errno : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const at = (typeof e.path === 'string' ? e.path : where) ?? '';
  const on = at ? ` (${at})` : '';
  if (NO_SPACE_CODES.has(code)) return new StorageFaultError('full', `no space left to write${on}: ${code}`, err);
  // SHMSIZE: SQLite could not make room for a WAL database's -shm file, which opening it needs
  // before any read; on a full disk that, not SQLITE_FULL, is what the first statement says.
  if (code.startsWith('SQLITE_FULL') || code === 'SQLITE_IOERR_SHMSIZE') return new StorageFaultError('full', `the SQLite database's disk is full${on}`, err);
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new StorageFaultError('damaged', `the SQLite database is damaged${on}: ${message}`, err, 'restore the file from a copy, or save what it holds with sqlite3 FILE .recover into a new file and point --db at that');
  }
  if (errno !== undefined && (MYSQL_FULL_ERRNO.has(errno) || (errno === 1030 && /\b28\b/.test(message)))) {
    return new StorageFaultError('full', `the MySQL server's disk is full: ${message}`, err);
  }
  if (errno !== undefined && MYSQL_DAMAGED_ERRNO.has(errno)) {
    return new StorageFaultError('damaged', `the MySQL database is damaged: ${message}`, err, 'repair the table (mariadb-check --auto-repair, or restore from a backup), then rerun');
  }
  return undefined;
}

/**
 * A database file this process may not write (SQLITE_READONLY: its mode, its folder's, a
 * read-only mount): the user's to fix, so a UserError (exit 2), not a fault of ours. `where`
 * names the file when the error does not (SQLite's do not).
 */
export function readOnlyStore(err: unknown, where?: string): UserError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY') ? cannotWriteSqlite(code, where) : undefined;
}

/** The line for a SQLite file that cannot be opened for writing or written, with SQLite's `code`. */
export function cannotWriteSqlite(code: string, where?: string): UserError {
  return new UserError(`cannot write the SQLite database${where ? ` ${where}` : ''} (${code})`, {
    fix: 'make the file and its folder writable (SQLite writes a -wal file beside it), or copy it somewhere writable',
  });
}
