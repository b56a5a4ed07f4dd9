import type { Store } from './store.js';
import { parseDbUrl } from './url.js';

/**
 * Opens the store a `--db` value names: `sqlite:PATH`, `sqlite::memory:` or
 * `mysql://user:pass@host:port/db`. The schema is brought up to date on open. Each backend is
 * loaded only when asked for, so a SQLite user never loads mysql2 and the reverse.
 */
export async function openStore(dbUrl: string): Promise<Store> {
  const target = parseDbUrl(dbUrl);
  if (target.kind === 'sqlite') {
    const { SqliteStore } = await import('./sqlite/store.js');
    return SqliteStore.open(target.path);
  }
  const { MysqlStore } = await import('./mysql/store.js');
  return MysqlStore.open(target);
}

export { parseDbUrl, redact } from './url.js';
