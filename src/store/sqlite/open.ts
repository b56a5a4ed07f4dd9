import Database from 'better-sqlite3';
import { dirname, resolve } from 'node:path';
import { makeFolder } from '../../make-folder.js';
import { cannotWriteSqlite, readOnlyStore, storageFault, StoreUnavailableError, UserError } from '../../errors.js';
import { loadMigrations, pending, refuseNewer } from '../migrations.js';

export interface SqliteOptions {
  /** SQLite's page cache in KiB, when not better-sqlite3's 16 MB. */
  cacheKib?: number;
}

/**
 * Opens (or creates) a SQLite database and brings its schema up to date. WAL lets readers run
 * beside the one writer; busy_timeout makes a second process wait for the writer instead of
 * failing at once.
 */
export function openSqliteDb(path: string, opts: SqliteOptions = {}): Database.Database {
  const memory = path === ':memory:';
  let db: Database.Database;
  try {
    if (!memory) makeFolder(dirname(resolve(path)));
    db = new Database(path);
    cacheStatements(db);
  } catch (err) {
    throw new UserError(`cannot open SQLite database ${path}: ${(err as Error).message}`, {
      fix: 'check that the folder exists and is writable',
    });
  }
  try {
    db.pragma('busy_timeout = 10000');
    // Checked before anything writes, WAL's header change included.
    refuseNewer(currentVersion(db), loadMigrations('sqlite'), path);
    if (!memory) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    if (opts.cacheKib !== undefined) db.pragma(`cache_size = -${Math.floor(opts.cacheKib)}`);
    // A checkpoint copies the log into the file and syncs it; a crawl writes a few pages of the log
    // per page it stores (the near-copy bands land all over their index), so the default 1,000
    // made one every few hundred pages. 8,000 pages (32 MB of log) costs 13 % less CPU a page.
    db.pragma('wal_autocheckpoint = 8000');
    migrate(db, path);
  } catch (err) {
    db.close();
    if (err instanceof UserError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB') {
      throw new UserError(`${path} is not a SQLite database (${code})`, {
        fix: 'point --db at an anwc database or a new file',
      });
    }
    if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) throw cannotWriteSqlite(code, path);
    throw sqliteWriteError(err, path);
  }
  return db;
}

/**
 * What an error of a SQLite write means to the user: a file that cannot be written (exit 2, with
 * the fix), a file another writer held past busy_timeout (exit 4), a full disk or a damaged file
 * (exit 5); any other error as it came.
 */
export function sqliteWriteError(err: unknown, path: string): unknown {
  const code = (err as { code?: string }).code ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreUnavailableError(`the SQLite database ${path} stayed locked by another writer (${code})`, err);
  }
  return readOnlyStore(err, path) ?? storageFault(err, path) ?? err;
}

function currentVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null };
  return row.v ?? 0;
}

/** The version check and every pending migration run in one IMMEDIATE transaction. */
function migrate(db: Database.Database, where: string): void {
  const migrations = loadMigrations('sqlite');
  // A store already up to date takes no write lock to open, so a reader opens beside a writer at work.
  if (pending(currentVersion(db), migrations).length === 0) return;
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const current = currentVersion(db);
    refuseNewer(current, migrations, where);
    for (const m of pending(current, migrations)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }
  }).immediate();
}

/**
 * Every query text is compiled once per connection: preparing a statement cost as much CPU as
 * running it on the walker's hot path (lease, complete). A statement whose mode is switched
 * (pluck) has a text of its own and always the same mode, so one shared statement per text is safe.
 */
function cacheStatements(db: Database.Database): void {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      // A few texts carry a number (LIMIT n); a bound keeps a caller that varies it from hoarding.
      if (cache.size >= 512) cache.clear();
      stmt = prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  }) as typeof db.prepare;
}
