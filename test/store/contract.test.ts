import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import { UserError } from '../../src/errors.js';
import { openStore } from '../../src/store/open.js';
import { latestVersion, loadMigrations } from '../../src/store/migrations.js';
import { parseDbUrl } from '../../src/store/url.js';
import { mysqlDb, rawSql, sqliteDb } from '../support/db.js';
import { contractSuite } from './contract-suite.js';

contractSuite({ name: 'SQLite', fresh: sqliteDb });
contractSuite({ name: 'SQLite on its own thread', fresh: sqliteDb, thread: true });

// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') {
  contractSuite({ name: 'MariaDB/MySQL', fresh: mysqlDb });
  contractSuite({ name: 'MariaDB/MySQL on its own thread', fresh: mysqlDb, thread: true });
}

const NEWER = 999;

describe('newer-schema refusal', () => {
  it('SQLite: refuses a database from a newer anwc and changes nothing', async () => {
    const db = sqliteDb();
    try {
      const s = await openStore(db.url);
      await s.setSetting('kept', 'yes');
      await s.close();
      const path = (parseDbUrl(db.url) as { path: string }).path;
      const raw = new Database(path);
      raw.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(NEWER, 'future', 0);
      raw.pragma('journal_mode = DELETE');
      raw.close();
      await assert.rejects(openStore(db.url), (e: unknown) =>
        e instanceof UserError &&
        e.toLine().includes(`schema version 999, newer than this anwc knows (${latestVersion(loadMigrations('sqlite'))})`) &&
        /upgrade anwc/.test(e.toLine()));
      const after = new Database(path, { readonly: true });
      assert.equal(after.pragma('journal_mode', { simple: true }), 'delete', 'not even the journal mode changed');
      assert.equal((after.prepare("SELECT value FROM settings WHERE key = 'kept'").get() as { value: string }).value, 'yes');
      after.close();
    } finally {
      await db.cleanup();
    }
  });

  it('MySQL: refuses a database whose schema_version is newer and creates no table', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
    const db = mysqlDb();
    const name = new URL(db.url).pathname.slice(1);
    try {
      const server = new URL(db.url);
      server.pathname = '/';
      await rawSql(server.toString(), `CREATE DATABASE \`${name}\``);
      await rawSql(db.url, 'CREATE TABLE schema_version (version INT PRIMARY KEY, name VARCHAR(191), applied_at BIGINT)');
      await rawSql(db.url, 'INSERT INTO schema_version VALUES (?, ?, ?)', [NEWER, 'future', 0]);
      await assert.rejects(openStore(db.url), (e: unknown) => e instanceof UserError && /newer than this anwc knows/.test(e.message));
      const c = await mysql.createConnection(db.url);
      const [tables] = await c.query('SHOW TABLES');
      await c.end();
      assert.deepEqual((tables as Record<string, string>[]).map((r) => Object.values(r)[0]), ['schema_version']);
    } finally {
      await db.cleanup();
    }
  });
});
