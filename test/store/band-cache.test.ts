import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import mysql from 'mysql2/promise';
import { bandRows, bandsColumn } from '../../src/store/rows.js';
import { CATCH_UP_MS, MysqlBandCache } from '../../src/store/mysql/bands.js';
import { nodesOf } from '../support/band-index.js';
import { mysqlDb, rawSql, sqliteDb, withSqliteStore, type TestDb } from '../support/db.js';

/**
 * The near-copy search reads band keys from memory, brought up to date from the table
 * (src/store/sqlite/bands.ts, src/store/mysql/bands.ts): what another store on the same database
 * wrote, edited or (SQLite) wrote again under an id freed by a delete must be found as the table
 * has it, and on MySQL what was committed out of id order too.
 */

const noMysql = process.env.ANWC_TEST_MYSQL === 'off' ? 'ANWC_TEST_MYSQL=off' : false;

const sig = (base: number) => Array.from({ length: 16 }, (_, k) => base + k);

/** A page's one node, on a link added first unless it is there. */
async function page(s: Store, n: number, bands: number[], url = `http://copies.test/${n}`): Promise<number> {
  if (!(await s.linkByUrl(url))) await s.addLinks([{ url, host: new URL(url).hostname, depth: 0 }]);
  const text = `Paragraph ${n}, long enough to stand as a node of its own on the page.`;
  const done = await s.completePage({
    linkId: (await s.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
    nodes: [{ text, sentences: [text], metaWordIds: [], bands }],
  });
  return done.nodeIds[0]!;
}

const found = async (s: Store, bands: number[]) => (await s.nodesSharingBands([bands], 8))[0]!.map((c) => c.id);

/**
 * Store b finds what store a, on the same database, wrote and edited; then `more`, on the same
 * two stores, given the edited node's id.
 */
async function twoStores(db: TestDb, more: (a: Store, b: Store, edited: number) => Promise<void>): Promise<void> {
  const a = await openStore(db.url);
  const b = await openStore(db.url);
  try {
    const first = await page(a, 1, sig(100));
    assert.deepEqual(await found(b, sig(100)), [first], 'read whole at the first search');
    const second = await page(a, 2, sig(200));
    assert.deepEqual(await found(b, sig(200)), [second], 'the rows written since');
    assert.deepEqual(await found(a, sig(200)), [second], 'the writer finds its own at once');
    assert.deepEqual(await found(b, sig(100)), [first]);

    await a.curateNode(second, { text: { text: 'Paragraph two, as its author has it now.', sentences: [], bands: sig(300) } }, 'ann', 5);
    assert.deepEqual(await found(b, sig(300)), [second], 'the new keys of an edited node');
    assert.deepEqual(await found(b, sig(200)), [], 'and not its old ones');
    assert.deepEqual(await found(a, sig(200)), [], 'nor in the store that edited it');
    await more(a, b, second);
  } finally {
    await a.close();
    await b.close();
    await db.cleanup();
  }
}

test('SQLite: a store finds what another store on the same file wrote, edited, or wrote again under a freed id', () => {
  const db = sqliteDb();
  return twoStores(db, async (a, b, second) => {
    // The newest node deleted: SQLite gives its id to the next node.
    await rawSql(db.url, 'DELETE FROM nodes WHERE id = ?', [second]);
    const third = await page(a, 3, sig(400));
    assert.equal(third, second, 'the id came back');
    assert.deepEqual(await found(b, sig(400)), [third], 'found under the id it took again');
    assert.deepEqual(await found(b, sig(300)), []);
    // Each writer files its own rows without reading them back: the other's, written in between,
    // are still read.
    const turns: [Store, number][] = [[a, 500], [b, 600], [a, 700], [a, 800], [b, 900], [a, 1000]];
    const ids = [];
    for (const [s, base] of turns) ids.push(await page(s, base, sig(base)));
    for (const s of [a, b]) {
      for (const [i, [, base]] of turns.entries()) assert.deepEqual(await found(s, sig(base)), [ids[i]], `node ${base}`);
    }
  });
});

test('SQLite: a store files the keys it writes as it writes them, and does not look at a node without keys twice', () =>
  withSqliteStore(async (s, url) => {
    const own = await page(s, 1, sig(100));
    // Keys changed behind the store's back, readers not told (no BANDS_EDITED): only a read of the row would see them.
    await rawSql(url, 'UPDATE nodes SET bands = ? WHERE id = ?', [bandsColumn(bandRows(sig(500))), own]);
    assert.deepEqual(await found(s, sig(100)), [own], 'filed as written');
    assert.deepEqual(await found(s, sig(500)), [], 'not read back');
    // A node without keys (an author's; a crawler's too short to have shingles).
    const [bare] = await rawSql(url, "INSERT INTO nodes (origin, text, sentences, text_hash, created_at) VALUES ('crawler', 'Too short.', '[]', ?, 0) RETURNING id", ['a'.repeat(64)]);
    assert.deepEqual(await found(s, sig(100)), [own], 'the search reads past the node without keys');
    await rawSql(url, 'UPDATE nodes SET bands = ? WHERE id = ?', [bandsColumn(bandRows(sig(600))), bare!.id]);
    assert.deepEqual(await found(s, sig(600)), [], 'and does not read it again');
  }));

test('MySQL: a store finds what another store on the same database wrote, and an edited node by its new keys only', { skip: noMysql }, () =>
  twoStores(mysqlDb(), async () => undefined));

test('MySQL: keys committed after a later node\'s are read at the next catch-up, not lost', { skip: noMysql }, async () => {
  const db = mysqlDb();
  await (await openStore(db.url)).close();
  const late = await mysql.createConnection(db.url);
  const pool = mysql.createPool({ uri: db.url, connectionLimit: 2 });
  let clock = 1_000_000;
  // Two nodes a read, so that the catch-up's read of three takes two.
  const cache = new MysqlBandCache(() => clock, 2);
  const node = async (c: mysql.Connection | mysql.Pool, n: number, keys: number[]) => {
    const [r] = await c.query("INSERT INTO nodes (origin, text, sentences, text_hash, created_at, bands) VALUES ('crawler', ?, '[]', ?, 0, ?)",
      [`Node ${n}.`, String(n).padStart(64, '0'), bandsColumn(bandRows(keys))]);
    return (r as mysql.ResultSetHeader).insertId;
  };
  const under = async (keys: number[]) => nodesOf(await cache.sync(pool), bandRows(keys)[0]!);
  try {
    await late.query('START TRANSACTION');
    const first = await node(late, 1, sig(500));
    const second = await node(pool, 2, sig(600));
    assert.ok(first < second);
    assert.deepEqual(await under(sig(600)), [second]);
    await late.query('COMMIT');
    assert.deepEqual(await under(sig(500)), [], 'past the ids read: not seen until the catch-up');
    clock += CATCH_UP_MS;
    const third = await node(pool, 3, sig(700));
    const index = await cache.sync(pool);
    const key = (keys: number[]) => bandRows(keys)[0]!;
    assert.deepEqual(nodesOf(index, key(sig(500))), [first], 'the catch-up reads the last interval again');
    assert.deepEqual(nodesOf(index, key(sig(700))), [third], 'in slices, to the last, in the same search');
    assert.deepEqual(nodesOf(index, key(sig(600))), [second]);
  } finally {
    await late.end();
    await pool.end();
    await db.cleanup();
  }
});

test('MySQL: a store finds the nodes it wrote itself though their page committed after a later page was read', { skip: noMysql }, async () => {
  const db = mysqlDb();
  const s = await openStore(db.url);
  const holder = await mysql.createConnection(db.url);
  const watcher = await mysql.createConnection(db.url);
  try {
    const urls = ['http://slow.test/1', 'http://fast.test/2'];
    // Both links first: adding one later would wait on the domains row held below.
    await s.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
    // The slow page's last writes wait on its domain's row, held here: its node is written, not committed.
    const slowDomain = (await s.domain('slow.test'))!.id;
    await holder.query('START TRANSACTION');
    await holder.query('SELECT id FROM domains WHERE id = ? FOR UPDATE', [slowDomain]);
    const slow = page(s, 1, sig(800), urls[0]);
    // Seen uncommitted: the slow page's node is in, and its transaction is still open.
    await watcher.query('SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
    for (let waited = 0; ; waited++) {
      const [rows] = await watcher.query('SELECT COUNT(*) AS n FROM nodes');
      if (Number((rows as { n: number }[])[0]!.n) > 0) break;
      assert.ok(waited < 400, 'the slow page\'s node was never written');
      await new Promise((r) => setTimeout(r, 25));
    }
    const later = await page(s, 2, sig(900), urls[1]);
    assert.deepEqual(await found(s, sig(900)), [later], 'the later page, read: the ids read are past the slow one\'s');
    await holder.query('COMMIT');
    const first = await slow;
    assert.ok(first < later, 'the slow page\'s node has the lower id');
    assert.deepEqual(await found(s, sig(800)), [first], 'found at once, though no read has covered its id');
  } finally {
    await holder.end();
    await watcher.end();
    await s.close();
    await db.cleanup();
  }
});
