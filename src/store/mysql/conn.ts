import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2/promise';
import type { Row } from '../rows.js';

/** Small helpers over mysql2 so the queries read as SQL, not as tuple unpacking. */
export type Conn = Pick<PoolConnection, 'query'>;

export async function all(c: Conn, sql: string, params: unknown[] = []): Promise<Row[]> {
  const [rows] = await c.query(sql, params);
  return rows as Row[];
}

export async function one(c: Conn, sql: string, params: unknown[] = []): Promise<Row | undefined> {
  return (await all(c, sql, params))[0];
}

export async function run(c: Conn, sql: string, params: unknown[] = []): Promise<ResultSetHeader> {
  const [res] = await c.query(sql, params);
  return res as ResultSetHeader;
}

/** Deadlocks and lock-wait timeouts are the database asking us to try again. */
const RETRYABLE = new Set([1213, 1205]);
const ATTEMPTS = 8;

/**
 * Runs fn in one transaction on one pooled connection, retrying the whole of it when InnoDB
 * picks it as a deadlock victim (two processes adding the same links can cross locks).
 */
export async function transaction<T>(pool: Pool, fn: (c: PoolConnection) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const c = await pool.getConnection();
    try {
      await c.beginTransaction();
      const result = await fn(c);
      await c.commit();
      return result;
    } catch (err) {
      await c.rollback().catch(() => undefined);
      const errno = (err as { errno?: number }).errno;
      if (errno === undefined || !RETRYABLE.has(errno) || attempt >= ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    } finally {
      c.release();
    }
  }
}
