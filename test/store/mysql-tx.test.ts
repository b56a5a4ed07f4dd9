import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResultSetHeader } from 'mysql2/promise';
import { all, transaction, type Db } from '../../src/store/mysql/conn.js';
import { openMysqlPool, type MysqlTarget } from '../../src/store/mysql/open.js';
import { parseDbUrl } from '../../src/store/url.js';
import { mysqlDb, type TestDb } from '../support/db.js';

/**
 * A MySQL transaction sends its statements in few round trips (conn.ts, Tx): its start with its
 * first statement, writes nobody reads with the next statement, its last writes with COMMIT.
 * Whatever goes in one trip, the statements run in the order written and the transaction stays
 * all or nothing.
 */
describe('a MySQL transaction in few round trips', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, () => {
  let db: TestDb;
  let pool: Db;
  const settings = async () => (await all(pool, 'SELECT `key`, value FROM settings ORDER BY `key`')).map((r) => `${r.key}=${r.value}`);
  const put = 'INSERT INTO settings (`key`, value) VALUES (?, ?)';

  before(async () => {
    db = mysqlDb();
    pool = await openMysqlPool(parseDbUrl(db.url) as MysqlTarget);
  });
  after(async () => {
    await pool.end();
    await db.cleanup();
  });

  it('sends several statements a round trip on a single server', () => {
    assert.equal(pool.batches, true);
  });

  it('runs a write left for later before the read that follows it, and commits it', async () => {
    const seen = await transaction(pool, async (c) => {
      c.later(put, ['a', '1']);
      return (await all(c, "SELECT value FROM settings WHERE `key` = 'a'")).map((r) => r.value);
    });
    assert.deepEqual(seen, ['1']);
    assert.deepEqual(await settings(), ['a=1']);
  });

  it('gives each statement of a trip its own answer, the commit included', async () => {
    const answers = await transaction(pool, async (c) => {
      c.later(put, ['b', '2']);
      const [inserted, read] = await c.batch([[put, ['c', '3']], ["SELECT `key` FROM settings WHERE `key` IN ('b', 'c') ORDER BY `key`", []]]);
      const [changed] = await c.commitWith([["UPDATE settings SET value = 'x' WHERE `key` IN ('a', 'b', 'c')", []]]);
      return [(inserted as ResultSetHeader).affectedRows, (read as { key: string }[]).map((r) => r.key), changed!.affectedRows];
    });
    assert.deepEqual(answers, [1, ['b', 'c'], 3]);
    assert.deepEqual(await settings(), ['a=x', 'b=x', 'c=x']);
  });

  it('keeps nothing of a transaction whose last trip fails, the writes left for later included', async () => {
    await assert.rejects(transaction(pool, async (c) => {
      await c.query(put, ['d', '4']);
      c.later(put, ['e', '5']);
      // The key is taken: the trip stops here and COMMIT is never run.
      await c.commitWith([[put, ['a', 'again']]]);
    }), { code: 'ER_DUP_ENTRY' });
    assert.deepEqual(await settings(), ['a=x', 'b=x', 'c=x']);
  });
});
