import type { Pool, PoolConnection } from 'mysql2/promise';
import type { MysqlServer } from '../url.js';
import { isGone, READ_TIMEOUT_MS, type Db } from './conn.js';

/**
 * One database reached through any of several servers, the nodes of a multi-primary cluster
 * (Galera): work goes to one server at a time and, when that one is lost, to the next in the
 * list. A pool per server is made when first needed and kept, so connections still out on a
 * server we have left finish or fail on their own.
 */
export class Servers implements Db {
  private readonly pools = new Map<number, Pool>();
  private at = 0;
  private readonly serverOf = new WeakMap<PoolConnection, number>();

  constructor(private readonly list: MysqlServer[], private readonly poolFor: (s: MysqlServer) => Pool, readonly batches: boolean) {}

  /** The server work goes to now, for messages. */
  get current(): MysqlServer {
    return this.list[this.at]!;
  }

  async getConnection(): Promise<PoolConnection> {
    let first: unknown;
    for (let tried = 0; tried < this.list.length; tried++) {
      const i = this.at;
      try {
        const c = await this.pool(i).getConnection();
        this.serverOf.set(c, i);
        return c;
      } catch (err) {
        if (!isGone(err)) throw err;
        first ??= err;
        this.leave(i);
      }
    }
    throw first;
  }

  async query(sql: string, params?: unknown[]): Promise<[unknown, unknown]> {
    const c = await this.getConnection();
    try {
      const result = await c.query({ sql, timeout: READ_TIMEOUT_MS }, params);
      c.release();
      return result;
    } catch (err) {
      if (isGone(err)) {
        this.lost(c);
        c.destroy();
      } else c.release();
      throw err;
    }
  }

  /** A connection failed as its server would if it were gone: the next work goes to the next server. */
  lost(c: PoolConnection): void {
    const i = this.serverOf.get(c);
    if (i !== undefined) this.leave(i);
  }

  async end(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.end()));
  }

  /** Moves on from server i, unless another failure on it already did (many fail at once when a node stops). */
  private leave(i: number): void {
    if (i === this.at) this.at = (i + 1) % this.list.length;
  }

  private pool(i: number): Pool {
    let p = this.pools.get(i);
    if (!p) {
      p = this.poolFor(this.list[i]!);
      this.pools.set(i, p);
    }
    return p;
  }
}
