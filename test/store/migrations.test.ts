import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { latestVersion, loadMigrations, pending, statements } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open.js';
import { mysqlDb, rawSql, sqliteDb, type TestDb } from '../support/db.js';
import { BAND_FANOUT, keysOfBandsColumn } from '../../src/store/rows.js';
import { storeSummaryLines } from '../../src/cli/report/summary.js';
import { RETRY_AFTER_MAX_MS } from '../../src/web/retry-after.js';

/** What the migrations that alter tables added, taken out again (a migration of data alone runs again as it is). */
const UNDO: Record<string, string[]> = {
  shingles: ['ALTER TABLE nodes DROP COLUMN shingles'],
  robots_by_origin: ['DROP TABLE robots', 'ALTER TABLE domains ADD COLUMN robots TEXT', 'ALTER TABLE domains ADD COLUMN robots_expires_at BIGINT'],
  topic_profiles: ['DROP TABLE meta_profiles', 'ALTER TABLE node_meta DROP COLUMN evidence'],
};

/** The database as an anwc before schema `version` left it: the migrations from `version` on run again at the next open. */
async function rewind(url: string, version: number): Promise<void> {
  for (const m of loadMigrations('sqlite').filter((x) => x.version >= version).reverse()) {
    if (m.name === 'bands_on_nodes') await bandsBackInTable(url);
    for (const sql of UNDO[m.name] ?? []) await rawSql(url, sql);
  }
  await rawSql(url, 'DELETE FROM schema_version WHERE version >= ?', [version]);
}

/** The nodes' band keys back in the table that held them before schema 17, one row a key, in node order. */
async function bandsBackInTable(url: string): Promise<void> {
  const mysql = url.startsWith('mysql:');
  // MySQL keeps the table, emptied (sql/mysql/017).
  if (mysql) await rawSql(url, 'DROP TABLE node_bands');
  await rawSql(url, mysql
    ? 'CREATE TABLE node_bands (band_key BIGINT UNSIGNED NOT NULL, node_id INT UNSIGNED NOT NULL, PRIMARY KEY (node_id, band_key)) ENGINE=InnoDB'
    : 'CREATE TABLE node_bands (node_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE, band_key INTEGER NOT NULL, PRIMARY KEY (node_id, band_key)) WITHOUT ROWID');
  for (const r of await rawSql(url, 'SELECT id, bands FROM nodes WHERE bands IS NOT NULL')) {
    for (const key of keysOfBandsColumn(r.bands)) await rawSql(url, 'INSERT INTO node_bands (band_key, node_id) VALUES (?, ?)', [key, r.id]);
  }
  if (!mysql) await rawSql(url, 'DROP TRIGGER nodes_bands_deleted');
  await rawSql(url, 'ALTER TABLE nodes DROP COLUMN bands');
}

/** The ids of the nodes whose stored keys hold `key`, in id order. */
async function nodesUnder(url: string, key: number): Promise<number[]> {
  const rows = await rawSql(url, 'SELECT id, bands FROM nodes WHERE bands IS NOT NULL ORDER BY id');
  return rows.filter((r) => keysOfBandsColumn(r.bands).includes(key)).map((r) => Number(r.id));
}

describe('migrations', () => {
  it('ship for both backends with the same numbers', () => {
    const [lite, my] = [loadMigrations('sqlite'), loadMigrations('mysql')];
    assert.ok(lite.length >= 1);
    assert.deepEqual(lite.map((m) => [m.version, m.name]), my.map((m) => [m.version, m.name]));
    assert.equal(latestVersion(lite), lite.length);
    assert.deepEqual(pending(0, lite), lite);
    assert.deepEqual(pending(latestVersion(lite), lite), []);
  });

  it('refuse a folder whose numbers skip one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-mig-'));
    try {
      writeFileSync(join(dir, '001_first.sql'), 'CREATE TABLE a (x INT);');
      writeFileSync(join(dir, '003_third.sql'), 'CREATE TABLE c (x INT);');
      writeFileSync(join(dir, 'README.txt'), 'not a migration');
      assert.throws(() => loadMigrations('sqlite', dir), /must run 1, 2, 3…; found 3 at place 2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('split a schema file into its statements, comments left out', () => {
    assert.deepEqual(statements('-- a comment; with a semicolon\nCREATE TABLE a (x INT);\n\nCREATE TABLE b (\n  y INT\n);\n'), [
      'CREATE TABLE a (x INT)', 'CREATE TABLE b (\n  y INT\n)',
    ]);
  });

  it('MySQL: a migration cut short (tables made, version not written) runs again in full', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
    const db = mysqlDb();
    try {
      const s1 = await openStore(db.url);
      await s1.setSetting('kept', 'yes');
      await s1.close();
      await rawSql(db.url, 'DELETE FROM schema_version');
      const s2 = await openStore(db.url);
      assert.equal(await s2.schemaVersion(), latestVersion(loadMigrations('mysql')));
      assert.equal(await s2.getSetting('kept'), 'yes');
      await s2.close();
    } finally {
      await db.cleanup();
    }
  });

  for (const [name, fresh] of [['SQLite', sqliteDb], ['MySQL', mysqlDb]] as [string, () => TestDb][]) {
    it(`${name}: a link and a host an earlier anwc parked past the Retry-After bound are due within it from now`, { skip: name === 'MySQL' && process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
      const db = fresh();
      try {
        const s1 = await openStore(db.url);
        await s1.addLinks(['/1', '/2'].map((p) => ({ url: `http://parked.test${p}`, host: 'parked.test', depth: 0 })));
        const [a, b] = [(await s1.linkByUrl('http://parked.test/1'))!, (await s1.linkByUrl('http://parked.test/2'))!];
        await s1.close();
        // What older versions wrote: SQLite kept 10^23 (a REAL), MySQL the largest BIGINT a smaller absurd value fits.
        const absurd = name === 'SQLite' ? 1e23 : '9223372036854775807';
        const soon = Date.now() + 5000;
        await rawSql(db.url, "UPDATE links SET status = 'pending', attempts = 1, not_before = ? WHERE id = ?", [absurd, a.id]);
        await rawSql(db.url, "UPDATE links SET status = 'pending', attempts = 1, not_before = ? WHERE id = ?", [soon, b.id]);
        await rawSql(db.url, 'UPDATE domains SET next_fetch_at = ?', [absurd]);
        await rewind(db.url, loadMigrations('sqlite').find((m) => m.name === 'bounded_waits')!.version);
        const before = Date.now();
        const s2 = await openStore(db.url);
        const after = Date.now();
        try {
          const [a2, b2] = [(await s2.link(a.id))!, (await s2.link(b.id))!];
          assert.ok(a2.notBefore! >= before - 1000 + RETRY_AFTER_MAX_MS && a2.notBefore! <= after + 1000 + RETRY_AFTER_MAX_MS, String(a2.notBefore));
          assert.equal(b2.notBefore, soon, 'a wait within the bound is left alone');
          assert.ok((await s2.domain('parked.test'))!.nextFetchAt! <= after + 1000 + RETRY_AFTER_MAX_MS);
          const now = Date.now();
          const lines = storeSummaryLines(await s2.summary(), [], now, await s2.waitingRetries(now));
          assert.ok(lines.some((l) => /^waiting: 2 links for a retry, next due [\d: -]+ UTC \(in \d+ s\)$/.test(l)), lines.join('\n'));
        } finally {
          await s2.close();
        }
      } finally {
        await db.cleanup();
      }
    });

    if (name === 'MySQL') {
      it('MySQL: a store from before the band keys were read from memory keeps its keys, now on its nodes, and finds its nodes by them', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
        const db = fresh();
        try {
          const s1 = await openStore(db.url);
          const pages = ['http://old.test/1', 'http://old.test/2'];
          await s1.addLinks(pages.map((url) => ({ url, host: 'old.test', depth: 0 })));
          const ids: number[] = [];
          for (const [i, url] of pages.entries()) {
            const t = `Old paragraph ${i}, long enough to be a node.`;
            const done = await s1.completePage({
              linkId: (await s1.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
              nodes: [{ text: t, sentences: [t], metaWordIds: [], bands: [50 + i, 60 + i] }],
            });
            ids.push(done.nodeIds[0]!);
          }
          await s1.close();
          // As schema 14 left the table: keyed by band, with an index by node.
          await rewind(db.url, 15);
          await rawSql(db.url, 'ALTER TABLE node_bands DROP PRIMARY KEY, ADD PRIMARY KEY (band_key, node_id), ADD KEY node_bands_node (node_id)');
          assert.equal((await rawSql(db.url, 'SELECT * FROM node_bands')).length, 4);
          const s2 = await openStore(db.url);
          try {
            assert.equal((await rawSql(db.url, 'SELECT * FROM node_bands')).length, 0, 'the table is emptied: its keys are on the nodes');
            for (const [i, id] of ids.entries()) assert.deepEqual(await nodesUnder(db.url, 2 ** 32 + 60 + i), [id]);
            const found = await s2.nodesSharingBands([[50, 60], [51, 61]], 8);
            assert.deepEqual(found.map((list) => list.map((c) => c.id)), [[ids[0]], [ids[1]]]);
          } finally {
            await s2.close();
          }
        } finally {
          await db.cleanup();
        }
      });
    }

    it(`${name}: a store from before the band key bound keeps each key's first BAND_FANOUT nodes`, { skip: name === 'MySQL' && process.env.ANWC_TEST_MYSQL === 'off' }, async () => {
      const db = fresh();
      try {
        const s1 = await openStore(db.url);
        const n = BAND_FANOUT + 3;
        const pages = Array.from({ length: n }, (_, i) => `http://old.test/${i}`);
        await s1.addLinks(pages.map((url) => ({ url, host: 'old.test', depth: 0 })));
        // As an old anwc wrote them: every node under key 7 (band 0) and a key of its own (band 1).
        const ids: number[] = [];
        for (const [i, url] of pages.entries()) {
          const t = `Old paragraph ${i}.`;
          const done = await s1.completePage({
            linkId: (await s1.linkByUrl(url))!.id, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
            nodes: [{ text: t, sentences: [t], metaWordIds: [] }],
          });
          ids.push(done.nodeIds[0]!);
        }
        await s1.close();
        const bound = loadMigrations('sqlite').find((m) => m.name === 'band_fanout')!.version;
        await rewind(db.url, bound);
        for (const [i, id] of ids.entries()) {
          for (const key of [7, 2 ** 32 + 100 + i]) await rawSql(db.url, 'INSERT INTO node_bands (band_key, node_id) VALUES (?, ?)', [key, id]);
        }
        assert.equal((await rawSql(db.url, 'SELECT node_id FROM node_bands WHERE band_key = 7')).length, n);
        const s2 = await openStore(db.url);
        await s2.close();
        assert.deepEqual(await nodesUnder(db.url, 7), ids.slice(0, BAND_FANOUT));
        assert.deepEqual(await nodesUnder(db.url, 2 ** 32 + 100 + n - 1), [ids[n - 1]], 'a key below the bound keeps its node');
      } finally {
        await db.cleanup();
      }
    });
  }
});
