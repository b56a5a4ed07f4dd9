import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import type { Store } from './store.js';
import { parseDbUrl } from './url.js';

/**
 * Opens the store a `--db` value names: `sqlite:PATH`, `sqlite::memory:` or
 * `mysql://user:pass@host:port/db`. The schema is brought up to date on open. Each backend is
 * loaded only when asked for, so a SQLite user never loads mysql2 and the reverse.
 */
export interface OpenOptions {
  /**
   * Refuse a database that does not exist yet (a SQLite file, a MySQL database) instead of
   * creating it: commands that only read (stats, why, pick, export, keywords) would otherwise
   * leave an empty database behind a typo.
   */
  mustExist?: boolean;
  /**
   * The store on a thread of its own (thread.ts), for a crawl, whose main thread is its bound; a
   * short command pays the thread's start (tens of ms) for nothing.
   */
  thread?: boolean;
}

export async function openStore(dbUrl: string, opts: OpenOptions = {}): Promise<Store> {
  const target = parseDbUrl(dbUrl);
  if (target.kind === 'sqlite') {
    if (opts.mustExist && target.path !== ':memory:' && !existsSync(target.path)) {
      throw new UserError(`no anwc database at ${target.path}`, {
        fix: 'run anwc import FILE.ane first, or point --db (or ANWC_DB) at your database',
      });
    }
    if (opts.thread) return (await import('./thread.js')).openStoreThread(dbUrl, 'sqlite', false);
    const { SqliteStore } = await import('./sqlite/store.js');
    return SqliteStore.open(target.path);
  }
  if (opts.thread) return (await import('./thread.js')).openStoreThread(dbUrl, 'mysql', opts.mustExist ?? false);
  const { MysqlStore } = await import('./mysql/store.js');
  return MysqlStore.open(target, opts.mustExist ?? false);
}

export { parseDbUrl, redact } from './url.js';
