import type { PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { StoreUnavailableError } from '../../errors.js';
import type { Row } from '../rows.js';

/** Small helpers over mysql2 so the queries read as SQL, not as tuple unpacking. */
export interface Conn {
  query(sql: string, params?: unknown[]): Promise<[unknown, unknown]>;
}

/** Where transactions get their connection: a pool, or the pools of a cluster's servers. */
export interface Db extends Conn {
  getConnection(): Promise<PoolConnection>;
  /**
   * Whether a transaction may send several statements a round trip (Tx). Not on a Galera
   * cluster: there a transaction the cluster aborts (another node won its rows) between two
   * statements of one trip is not reported, and the trip's COMMIT answers OK for work that was
   * rolled back (seen about once in 300 races).
   */
  readonly batches: boolean;
  /** Told of a connection that failed as if its server were gone. */
  lost?(c: PoolConnection): void;
  end(): Promise<void>;
}

/** A read straight on the pool is retried like a transaction when the connection went away. */
export async function all(c: Conn, sql: string, params: unknown[] = []): Promise<Row[]> {
  const read = async () => (await c.query(sql, params))[0] as Row[];
  if (!isPool(c)) return read();
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      await waitOrGiveUp(err, attempt);
    }
  }
}

function isPool(c: Conn): c is Db {
  return typeof (c as Partial<Db>).getConnection === 'function';
}

export async function one(c: Conn, sql: string, params: unknown[] = []): Promise<Row | undefined> {
  return (await all(c, sql, params))[0];
}

export async function run(c: Conn, sql: string, params: unknown[] = []): Promise<ResultSetHeader> {
  const [res] = await c.query(sql, params);
  return res as ResultSetHeader;
}

/**
 * A statement with no answer for this long is a server lost: one that stopped answering on a
 * connection it keeps open (a stuck server, a middlebox) would otherwise hold the run, and its
 * Ctrl-C, for ever. mysql2 then fails it with PROTOCOL_SEQUENCE_TIMEOUT, tried again like any lost
 * server. A transaction is the crawl's short work (a lease, a page's rows); a read may be `stats`
 * over a large store. Each try may meet another idle connection to the stuck server before a new
 * one fails to connect, so a stuck server is given up after a minute or two.
 */
export const READ_TIMEOUT_MS = 60_000;
export const TRANSACTION_TIMEOUT_MS = 15_000;

/** Deadlocks and lock-wait timeouts are the database asking us to try again. */
const CONTENTION = new Set([1213, 1205]);
/** The connection or the server went away: reconnect and try again (server gone, lost, shutting down, killed). */
const GONE_ERRNO = new Set([2006, 2013, 1053, 1927, 1047]);
/** ENOENT: a server reached by its Unix socket removes the socket file while it restarts. */
const GONE_CODE = new Set(['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'PROTOCOL_SEQUENCE_TIMEOUT', 'ER_CONNECTION_KILLED', 'ENOENT']);
/**
 * The database, its tables or the right to them went away under an open store (dropped, the user
 * dropped or its grants revoked): nothing a retry brings back, and no fault of ours.
 */
const WITHDRAWN_CODE = new Set(['ER_BAD_DB_ERROR', 'ER_NO_SUCH_TABLE', 'ER_ACCESS_DENIED_ERROR', 'ER_DBACCESS_DENIED_ERROR', 'ER_TABLEACCESS_DENIED_ERROR']);

/**
 * Contention is tried again soon, with a growing random wait (on a multi-primary cluster every
 * node's writers race for a hot row, and each round only one wins); a lost server with backoff
 * over about half a minute.
 */
const CONTENTION_ATTEMPTS = 24;
const GONE_ATTEMPTS = 7;

type Trouble = 'contention' | 'gone' | undefined;

/** Thrown by work that found a row changed under it by another writer: the transaction is run again. */
export class Contended extends Error {}

function trouble(err: unknown): Trouble {
  if (err instanceof Contended) return 'contention';
  const e = err as { errno?: number; code?: string; fatal?: boolean };
  if (e.errno !== undefined && CONTENTION.has(e.errno)) return 'contention';
  if ((e.errno !== undefined && GONE_ERRNO.has(e.errno)) || (e.code !== undefined && GONE_CODE.has(e.code))) return 'gone';
  return undefined;
}

export const isGone = (err: unknown): boolean => trouble(err) === 'gone';

/**
 * Waits before the next try of a retryable failure; rethrows the rest, and a lost server past its
 * tries, or a database withdrawn, as StoreUnavailableError.
 */
async function waitOrGiveUp(err: unknown, attempt: number): Promise<void> {
  const t = trouble(err);
  if (t === 'contention' && attempt < CONTENTION_ATTEMPTS) {
    await new Promise((r) => setTimeout(r, Math.random() * Math.min(250, 5 * 2 ** attempt)));
    return;
  }
  if (t === 'gone') {
    if (attempt >= GONE_ATTEMPTS) {
      throw new StoreUnavailableError(`the MySQL server stayed unreachable after ${attempt} tries (${(err as Error).message})`, err);
    }
    await new Promise((r) => setTimeout(r, Math.min(8000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random())));
    return;
  }
  if (WITHDRAWN_CODE.has((err as { code?: string }).code ?? '')) {
    throw new StoreUnavailableError(`the MySQL database went away under the run (${(err as Error).message})`, err);
  }
  throw err;
}

/** SQL with `?` placeholders and their values. */
export type Statement = [sql: string, params: unknown[]];

/**
 * A transaction's connection that saves round trips, which on loopback are the cost of a page
 * (issue: speed): its START TRANSACTION goes with its first statement, the writes whose answer
 * nobody reads (`later`) go with the statement after them, and the last writes go with COMMIT
 * (`commitWith`). Statements still run one after another, in the order they were written. On a
 * server where that is not safe (Db.batches), each statement is its own trip.
 */
export class Tx implements Conn {
  private begun = false;
  private committed = false;
  private readonly queued: string[] = [];

  constructor(readonly connection: PoolConnection, private readonly batches: boolean) {}

  /** Runs sql after what waits to be sent, in one round trip; sql's own answer. */
  async query(sql: string, params: unknown[] = []): Promise<[unknown, unknown]> {
    const [results, fields] = await this.send([this.text([sql, params])]);
    return [results.at(-1), fields.at(-1)];
  }

  /** Several statements in one round trip; each one's answer, in order. */
  async batch(statements: Statement[]): Promise<unknown[]> {
    return (await this.send(statements.map(this.text)))[0];
  }

  /** A write whose answer is not needed: it is sent with the next statement, or with COMMIT. */
  later(sql: string, params: unknown[]): void {
    this.queued.push(this.text([sql, params]));
  }

  /** Sends the statements, then COMMIT, after what waits, in one round trip; their answers. */
  async commitWith(statements: Statement[]): Promise<ResultSetHeader[]> {
    const [results] = await this.send([...statements.map(this.text), 'COMMIT']);
    this.committed = true;
    return results.slice(0, -1) as ResultSetHeader[];
  }

  async commit(): Promise<void> {
    if (this.committed || (!this.begun && this.queued.length === 0)) return;
    await this.send(['COMMIT']);
    this.committed = true;
  }

  /** A statement with its values in, as the text protocol sends it. */
  private readonly text = ([sql, params]: Statement): string => this.connection.format(sql, params);

  /** The answers of `own` alone: the transaction's start and the queued writes are dropped. */
  private async send(own: string[]): Promise<[unknown[], unknown[]]> {
    const all = [...(this.begun ? [] : ['START TRANSACTION']), ...this.queued.splice(0), ...own];
    this.begun = true;
    if (!this.batches) {
      const answers: [unknown, unknown][] = [];
      for (const sql of all) answers.push(await this.connection.query({ sql, timeout: TRANSACTION_TIMEOUT_MS }));
      const mine = answers.slice(all.length - own.length);
      return [mine.map(([r]) => r), mine.map(([, f]) => f)];
    }
    const [results, fields] = await this.connection.query({ sql: all.join(';\n'), timeout: TRANSACTION_TIMEOUT_MS });
    // One statement answers as itself; several as a list of answers.
    const list = (all.length === 1 ? [results] : results) as unknown[];
    const fieldList = (all.length === 1 ? [fields] : fields) as unknown[];
    return [list.slice(all.length - own.length), fieldList.slice(all.length - own.length)];
  }
}

/**
 * Runs fn in one transaction on one pooled connection, retrying the whole of it when InnoDB
 * picks it as a deadlock victim (two processes adding the same links can cross locks), or on a
 * fresh connection when this one was lost (killed, the server restarted). A commit whose answer
 * was lost may have been applied: the work done in transactions is written to be safe to repeat
 * (a page's completion checks its lease owner, nodes are unique by text). `undo` runs after each
 * attempt that was taken back, to drop what the caller kept in memory of it.
 */
export async function transaction<T>(pool: Db, fn: (c: Tx) => Promise<T>, undo?: () => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let c: PoolConnection | undefined;
    try {
      c = await pool.getConnection();
      const tx = new Tx(c, pool.batches);
      const result = await fn(tx);
      await tx.commit();
      c.release();
      return result;
    } catch (err) {
      if (c) {
        // A connection that failed is not given back to the pool to fail the next caller.
        if (isGone(err)) {
          pool.lost?.(c);
          c.destroy();
        } else {
          await c.rollback().catch(() => undefined);
          c.release();
        }
      }
      undo?.();
      await waitOrGiveUp(err, attempt);
    }
  }
}
