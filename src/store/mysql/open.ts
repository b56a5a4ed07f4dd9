import mysql, { type Connection } from 'mysql2/promise';
import { UserError } from '../../errors.js';
import { loadMigrations, pending, refuseNewer, statements } from '../migrations.js';
import type { MysqlServer } from '../url.js';
import type { Db } from './conn.js';
import { Servers } from './servers.js';

/**
 * Connecting to MySQL/MariaDB: the database is created when missing, the schema brought up to
 * date under a named lock (so that several processes opening one new database at once apply
 * each migration once), and a pool handed back.
 */
export interface MysqlTarget {
  /** Tried in this order: one server, or the nodes of a cluster. */
  servers: MysqlServer[];
  user: string;
  password: string;
  database: string;
}

const CONNECT_TIMEOUT_MS = 5000;

function where(t: MysqlTarget): string {
  return t.servers.map((s) => s.socket ?? `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`).join(',');
}

/** How mysql2 reaches one server: its Unix socket when the address names one, else host and port. */
function reach(s: MysqlServer): { socketPath: string } | { host: string; port: number } {
  return s.socket !== undefined ? { socketPath: s.socket } : { host: s.host, port: s.port };
}

/** A socket file that is missing (ENOENT) or not ours to open (EACCES) is a server not reached. */
const UNREACHABLE = ['ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ECONNRESET', 'PROTOCOL_CONNECTION_LOST', 'ENOENT', 'EACCES'];

/** Turns a failure to connect into the one line a user can act on. */
export function connectError(err: unknown, t: MysqlTarget): Error {
  const e = err as { code?: string; errno?: number; message?: string };
  const code = e.code ?? 'error';
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') {
    return new UserError(`MySQL at ${where(t)} refused user ${t.user} (${code})`, {
      fix: 'check the user and password in --db',
    });
  }
  if (UNREACHABLE.includes(code)) {
    return new UserError(`cannot connect to MySQL at ${where(t)} (${code}); is the server running?`, {
      fix: t.servers.some((s) => s.socket !== undefined)
        ? "start it, or fix the socket path in --db (the server's `SELECT @@socket` names it)"
        : 'start it (e.g. `sudo systemctl start mariadb`) or fix the host and port in --db',
    });
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** The first of the servers that answers; a node of a cluster that is down is passed over. */
async function connect(t: MysqlTarget, database?: string): Promise<Connection> {
  let first: unknown;
  for (const s of t.servers) {
    try {
      return await mysql.createConnection({
        ...reach(s), user: t.user, password: t.password, database,
        charset: 'UTF8MB4_BIN', connectTimeout: CONNECT_TIMEOUT_MS, multipleStatements: true,
      });
    } catch (err) {
      if (!UNREACHABLE.includes((err as { code?: string }).code ?? '')) throw connectError(err, t);
      first ??= err;
    }
  }
  throw connectError(first, t);
}

/**
 * Connects to the database, creating it when the server does not have it yet; with `mustExist`
 * (commands that only read) a missing database is the user's to fix, and nothing is created.
 */
async function connectCreating(t: MysqlTarget, mustExist: boolean): Promise<Connection> {
  try {
    return await connect(t, t.database);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ER_BAD_DB_ERROR') throw err;
    if (mustExist) {
      throw new UserError(`no database ${t.database} on MySQL at ${where(t)}`, {
        fix: 'run anwc import FILE.ane first (it creates the database), or point --db at your database',
      });
    }
  }
  const server = await connect(t);
  try {
    await server.query(`CREATE DATABASE IF NOT EXISTS \`${t.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await server.end();
  }
  return connect(t, t.database);
}

async function currentVersion(c: Connection): Promise<number> {
  const [tables] = await c.query("SHOW TABLES LIKE 'schema_version'");
  if ((tables as unknown[]).length === 0) return 0;
  const [rows] = await c.query('SELECT MAX(version) AS v FROM schema_version');
  return Number((rows as { v: number | null }[])[0]?.v ?? 0);
}

/**
 * On a Galera cluster the migration lock is each node's own, so processes opening a new database
 * on two nodes at once run the same migration alongside. The cluster interrupts one of two DDL
 * statements on a table (1317), and of two transactions that write the same rows (a migration's
 * DML, its version row) certification commits one and fails the other (1213). The statements
 * are re-runnable: the loser runs again.
 */
async function runAgainIfRaced(run: () => Promise<void>, errno: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if ((err as { errno?: number }).errno !== errno || attempt >= 10) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 50 * attempt));
    }
  }
}

/**
 * MySQL commits DDL at once, so a migration cannot roll back as a whole there; the statements
 * are written to be re-runnable instead, and the version row is written last, so a migration
 * cut short runs again in full on the next open.
 */
async function migrate(c: Connection, t: MysqlTarget): Promise<void> {
  const migrations = loadMigrations('mysql');
  const lock = `anwc_migrate_${t.database}`;
  const [got] = await c.query('SELECT GET_LOCK(?, 60) AS ok', [lock]);
  if (Number((got as { ok: number }[])[0]?.ok) !== 1) throw new Error(`another process holds ${lock} for over 60 s`);
  try {
    const current = await currentVersion(c);
    refuseNewer(current, migrations, `${where(t)}/${t.database}`);
    await c.query(`CREATE TABLE IF NOT EXISTS schema_version (
      version INT NOT NULL PRIMARY KEY, name VARCHAR(191) NOT NULL, applied_at BIGINT NOT NULL) ENGINE=InnoDB`);
    for (const m of pending(current, migrations)) {
      await runAgainIfRaced(async () => {
        await c.beginTransaction();
        try {
          for (const s of statements(m.sql)) await runAgainIfRaced(async () => void (await c.query(s)), 1317);
          // IGNORE: on a cluster another node's process may have run the same migration at the same time.
          await c.query('INSERT IGNORE INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, Date.now()]);
          await c.commit();
        } catch (err) {
          await c.rollback().catch(() => undefined);
          throw err;
        }
      }, 1213);
    }
  } finally {
    await c.query('SELECT RELEASE_LOCK(?)', [lock]);
  }
}

export async function openMysqlPool(t: MysqlTarget, mustExist = false, connectionLimit = 4): Promise<Db> {
  const c = await connectCreating(t, mustExist);
  let cluster: boolean;
  try {
    await migrate(c, t);
    cluster = await isGaleraNode(c);
  } finally {
    await c.end();
  }
  return new Servers(t.servers, (s) => {
    const pool = mysql.createPool({
      ...reach(s), user: t.user, password: t.password, database: t.database,
      charset: 'UTF8MB4_BIN', connectTimeout: CONNECT_TIMEOUT_MS, connectionLimit, supportBigNumbers: true,
      // A transaction sends several statements in one round trip (conn.ts, Tx).
      multipleStatements: true,
      // No stack captured at each query for its error: that was 3 % of a crawl's CPU, and the
      // store reports a database's errors in one line, never with a stack.
      trace: false,
    });
    // READ COMMITTED: a row another process inserted a moment ago (a node, a link) must be
    // visible to the SELECT that follows our INSERT IGNORE of the same key.
    pool.on('connection', (conn) => {
      conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    });
    return pool;
  }, !cluster);
}

/** A node of a Galera cluster (MariaDB, Percona XtraDB Cluster); MySQL has no such variable. */
async function isGaleraNode(c: Connection): Promise<boolean> {
  const [rows] = await c.query("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'");
  return (rows as { Value?: string }[]).some((r) => String(r.Value).toUpperCase() === 'ON');
}
