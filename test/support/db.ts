import mysql from 'mysql2/promise';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';

/**
 * Fresh databases for tests: a SQLite file in a temp folder, or a MySQL database with a name
 * unique to this process and call, dropped afterwards. Test files run in parallel processes,
 * so nothing is shared between them.
 */
export const MYSQL_BASE = process.env.ANWC_TEST_MYSQL ?? 'mysql://root@127.0.0.1:3306/';

/** Benches measure MySQL only when asked: ANWC_TEST_MYSQL names a server (`off`, as in tests, is no). */
export const benchMysql = (): boolean => !!process.env.ANWC_TEST_MYSQL && process.env.ANWC_TEST_MYSQL !== 'off';

export interface TestDb {
  url: string;
  cleanup(): Promise<void>;
}

let counter = 0;

export function uniqueName(prefix = 'anwc_test'): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}_${Math.random().toString(36).slice(2, 8)}`;
}

export function sqliteDb(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-store-'));
  return {
    url: `sqlite:${join(dir, 'test.sqlite')}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `fn` on a store in a fresh SQLite file, closed and removed afterwards whatever `fn` does. */
export async function withSqliteStore<T>(fn: (store: Store, url: string) => Promise<T>): Promise<T> {
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    return await fn(store, db.url);
  } finally {
    await store.close();
    await db.cleanup();
  }
}

function serverUrl(): URL {
  const u = new URL(MYSQL_BASE);
  u.pathname = '/';
  return u;
}

/** A MySQL database name that does not exist yet; openStore creates it. */
export function mysqlDb(): TestDb {
  const name = uniqueName();
  const u = serverUrl();
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    cleanup: async () => {
      const c = await mysql.createConnection(serverUrl().toString());
      try {
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await c.end();
      }
    },
  };
}

/** The test MySQL server's Unix socket, when the server runs on this machine (the file is here). */
export async function mysqlSocket(): Promise<string | undefined> {
  const socket = String((await rawSql(MYSQL_BASE, 'SELECT @@socket AS socket'))[0]?.socket ?? '');
  return socket !== '' && existsSync(socket) ? socket : undefined;
}

/** The same MySQL database address, reached through the server's Unix socket at `socket` instead of TCP. */
export function viaSocket(url: string, socket: string): string {
  const u = new URL(url);
  const user = u.password === '' ? u.username : `${u.username}:${u.password}`;
  return `mysql://${user === '' ? '' : `${user}@`}localhost${u.pathname}?socket=${encodeURIComponent(socket)}`;
}

/** Whether the test MySQL server answers; a test suite is skipped, loudly, when it does not. */
export async function mysqlAvailable(): Promise<boolean> {
  try {
    const c = await mysql.createConnection({ uri: serverUrl().toString(), connectTimeout: 3000 });
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** A raw statement on a test database of either kind (to see what the Store wrote, or to set up states it never writes); a SELECT's rows. */
export async function rawSql(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    try {
      const st = db.prepare(sql);
      if (!st.reader) {
        st.run(...params);
        return [];
      }
      return st.all(...params) as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const c = await mysql.createConnection(url);
  try {
    return (await c.query(sql, params))[0] as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}
