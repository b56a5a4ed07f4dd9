import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError, UserError } from '../../src/errors.js';
import { openStore } from '../../src/store/open.js';
import { ThreadStore } from '../../src/store/thread.js';
import type { Store } from '../../src/store/store.js';
import { parseDbUrl } from '../../src/store/url.js';
import { mysqlDb, sqliteDb } from '../support/db.js';

/*
 * What the thread adds to the store the contract suite checks on it (contract.test.ts): errors
 * that keep their class across the thread, calls that fail alone, a thread that dies, and a
 * process that ends without close().
 */
describe('SQLite store on its own thread', () => {
  it('refuses a file that is not a database with the UserError and fix of the store itself', async () => {
    const db = sqliteDb();
    try {
      const path = (parseDbUrl(db.url) as { path: string }).path;
      writeFileSync(path, 'not a database, just some words in a file that is long enough to have a header\n'.repeat(20));
      await assert.rejects(openStore(db.url, { thread: true }), (e: unknown) =>
        e instanceof UserError && /is not a SQLite database/.test(e.message) && /point --db/.test(e.fix ?? ''));
    } finally {
      await db.cleanup();
    }
  });

  it('fails a call whose arguments cannot cross the thread, and answers the others of its turn', async () => {
    const db = sqliteDb();
    const store = await openStore(db.url, { thread: true });
    try {
      const [bad, good] = [store.setSetting('k', (() => 'v') as unknown as string), store.setSetting('k', 'v')];
      await assert.rejects(bad, (e: unknown) => (e as Error).name === 'DataCloneError');
      await good;
      assert.equal(await store.getSetting('k'), 'v');
    } finally {
      await store.close();
      await db.cleanup();
    }
  });

  it('says the store is unavailable to a call after close', async () => {
    const db = sqliteDb();
    const store = await openStore(db.url, { thread: true });
    await store.close();
    try {
      await assert.rejects(store.summary(), (e: unknown) => e instanceof StoreUnavailableError && e.message === 'the SQLite store is closed');
      await store.close();
    } finally {
      await db.cleanup();
    }
  });

  it('fails the calls waiting on a thread that died as a store gone away', async () => {
    const dies = new Worker("require('node:worker_threads').parentPort.once('message', () => process.exit(7));", { eval: true });
    const store = new ThreadStore(dies, 'sqlite') as unknown as Store;
    await assert.rejects(store.summary(), (e: unknown) => e instanceof StoreUnavailableError && /^the SQLite store's thread stopped \(exit code 7\)/.test(e.message));
    await assert.rejects(store.getSetting('k'), StoreUnavailableError);
  });

  it('names the kind of store whose thread died', async () => {
    const dies = new Worker("require('node:worker_threads').parentPort.once('message', () => process.exit(3));", { eval: true });
    const store = new ThreadStore(dies, 'mysql') as unknown as Store;
    await assert.rejects(store.summary(), (e: unknown) => e instanceof StoreUnavailableError && /^the MariaDB\/MySQL store's thread stopped \(exit code 3\)/.test(e.message));
  });

  it('lets a process end that never closed its store', () => {
    const db = sqliteDb();
    try {
      const open = pathToFileURL(resolve('dist', 'src', 'store', 'open.js')).href;
      const script = `const { openStore } = await import(${JSON.stringify(open)});
        const s = await openStore(${JSON.stringify(db.url)}, { thread: true });
        await s.setSetting('left', 'open');
        console.log(await s.getSetting('left'));`;
      const file = join(dirname((parseDbUrl(db.url) as { path: string }).path), 'left-open.mjs');
      writeFileSync(file, script);
      const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(r.signal, null, 'ended by itself, not by the timeout');
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'open');
    } finally {
      void db.cleanup();
    }
  });
});

describe('MariaDB/MySQL store on its own thread', { skip: process.env.ANWC_TEST_MYSQL === 'off' ? 'ANWC_TEST_MYSQL=off' : false }, () => {
  it('is a MySQL store to its callers, and refuses a database that is not there with the store\'s own UserError', async () => {
    const db = mysqlDb();
    try {
      await assert.rejects(openStore(db.url, { thread: true, mustExist: true }), (e: unknown) =>
        e instanceof UserError && /^no database /.test(e.message) && e.fix !== undefined);
      const store = await openStore(db.url, { thread: true });
      try {
        assert.equal(store.kind, 'mysql');
        await store.setSetting('k', 'v');
        assert.equal(await store.getSetting('k'), 'v');
      } finally {
        await store.close();
      }
    } finally {
      await db.cleanup();
    }
  });
});
