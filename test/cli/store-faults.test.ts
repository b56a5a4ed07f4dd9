import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { openStore } from '../../src/store/open.js';
import { MYSQL_BASE, mysqlDb, type TestDb } from '../support/db.js';
import { startAnwc } from '../support/cli.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * The database failing under a running harvest, with real parts: MariaDB connections killed from
 * another session (once, and without end), a SQLite file held by another writer, and SIGTERM.
 * Each run ends in a clean state: one line, the documented exit code, nothing half-written, and
 * a rerun that resumes at once.
 */

const PAGES = 12;

const start = (args: string[]) => startAnwc(args);

let web: FlakyWeb;
let dir: string;
before(async () => {
  web = await startFlakyWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-store-faults-'));
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A site of slow pages, so that a harvest is still running when the test strikes. */
function site(host: string, delayMs: number): string[] {
  const urls: string[] = [];
  for (let i = 0; i < PAGES; i++) {
    web.page(host, `/${i}.html`, { html: `<html><body>${prose(`${host} ${i}`)}</body></html>`, delayMs });
    urls.push(web.url(host, `/${i}.html`));
  }
  return urls;
}

async function seeded(db: string, urls: string[]): Promise<void> {
  const store = await openStore(db);
  await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
  await store.close();
}

const harvestArgs = (db: string, ...more: string[]) => ['harvest', '--db', db, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--progress', 'none', ...more];

/** Until the harvest has asked the host for a page (robots.txt and one more request), however loaded the machine; at most 30 s. */
async function walking(host: string): Promise<void> {
  for (let i = 0; i < 300 && web.count(host) < 2; i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(web.count(host) >= 2, `the harvest reached ${host}`);
}

async function summary(db: string) {
  const store = await openStore(db);
  try {
    return await store.summary();
  } finally {
    await store.close();
  }
}

/** A loopback TCP proxy to MariaDB; `cut` drops every connection and refuses new ones, as a server that went away. */
async function tcpProxy(targetPort: string): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    cut: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

/** Kills every connection to the database but our own; how many. */
async function killConnections(admin: mysql.Connection, database: string): Promise<number> {
  const [rows] = await admin.query('SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [database]);
  for (const r of rows as { ID: number }[]) await admin.query(`KILL ${Number(r.ID)}`).catch(() => undefined);
  return (rows as unknown[]).length;
}

describe('a MariaDB that fails under a harvest', { skip: process.env.ANWC_TEST_MYSQL === 'off', timeout: 180_000 }, () => {
  let admin: mysql.Connection;
  const dbs: TestDb[] = [];
  before(async () => {
    admin = await mysql.createConnection(MYSQL_BASE);
  });
  after(async () => {
    await admin.end();
    for (const d of dbs) await d.cleanup();
  });

  it('connections killed mid-run: it reconnects and finishes, every page once, no node doubled', async () => {
    const d = mysqlDb();
    dbs.push(d);
    const urls = site('killed.test', 400);
    await seeded(d.url, urls);
    const name = new URL(d.url).pathname.slice(1);
    const run = start(harvestArgs(d.url, '--concurrency', '2'));
    await walking('killed.test');
    let killed = 0;
    for (let i = 0; i < 3; i++) {
      killed += await killConnections(admin, name);
      await new Promise((r) => setTimeout(r, 300));
    }
    const r = await run.exited;
    assert.ok(killed > 0, 'connections were killed while it ran');
    assert.equal(r.code, 0, r.stderr);
    const sum = await summary(d.url);
    assert.equal(sum.links.done, PAGES);
    assert.equal(sum.nodes.crawler, PAGES, 'one node per page, none doubled');
    for (const u of urls) assert.equal(web.count('killed.test', new URL(u).pathname), 1, u);
  });

  it('a database dropped under the run: one line, exit 4, not an internal error', async () => {
    const d = mysqlDb();
    dbs.push(d);
    await seeded(d.url, site('dropped.test', 300));
    const run = start(harvestArgs(d.url, '--concurrency', '2'));
    await walking('dropped.test');
    await admin.query(`DROP DATABASE \`${new URL(d.url).pathname.slice(1)}\``);
    const r = await run.exited;
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^anwc: store unavailable: the MySQL database went away under the run \(.*doesn't exist\); what was stored is kept, rerun to resume$/m);
    assert.doesNotMatch(r.stderr, /internal error/);
  });

  it('a database that stays away: one line, exit 4; a rerun resumes at once without waiting out the leases', async () => {
    const d = mysqlDb();
    dbs.push(d);
    const urls = site('gone.test', 300);
    await seeded(d.url, urls);
    // The harvest reaches MariaDB through a proxy of the test's own, which the test can take away.
    const proxy = await tcpProxy(new URL(MYSQL_BASE).port || '3306');
    const via = new URL(d.url);
    via.port = String(proxy.port);
    const run = start(harvestArgs(via.toString(), '--concurrency', '2', '--lease', '600'));
    await walking('gone.test');
    await proxy.cut();
    const r = await run.exited;
    assert.equal(r.code, 4, r.stderr);
    const lines = r.stderr.trim().split('\n').filter((l) => l.startsWith('anwc: store unavailable'));
    assert.equal(lines.length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    const before = await summary(d.url);
    assert.ok((before.links.done ?? 0) < PAGES, 'it stopped before the end');
    const rerun = await start(harvestArgs(d.url, '--concurrency', '2', '--lease', '600')).exited;
    assert.equal(rerun.code, 0, rerun.stderr);
    const sum = await summary(d.url);
    assert.equal(sum.links.done, PAGES, 'the rerun walked what the first left: its leases were freed at once, not after 600 s');
    assert.equal(sum.nodes.crawler, PAGES);
  });
});

describe('SQLite and signals', { timeout: 120_000 }, () => {
  it('a SQLite file held by another writer: the harvest waits for it and goes on', async () => {
    const db = `sqlite:${join(dir, 'locked.sqlite')}`;
    await seeded(db, site('locked.test', 50));
    const holder = new Database(join(dir, 'locked.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    const run = start(harvestArgs(db, '--concurrency', '2'));
    await new Promise((r) => setTimeout(r, 2500));
    holder.exec('COMMIT');
    holder.close();
    const r = await run.exited;
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await summary(db)).links.done, PAGES);
  });

  it('a SQLite file another writer holds: stats reads it at once, a store up to date takes no write lock to open', async () => {
    const file = join(dir, 'held.sqlite');
    await seeded(`sqlite:${file}`, site('held.test', 0));
    const holder = new Database(file);
    try {
      holder.exec('BEGIN EXCLUSIVE');
      holder.exec('DELETE FROM settings');
      const r = await start(['stats', '--db', `sqlite:${file}`]).exited;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`pending +${PAGES}`));
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('maintain interrupted: its index goes to NAME.partial.html, and the complete index and its .prev.html stay as they were', async () => {
    const host = 'mom-stop.test';
    const top = () => web.page(host, '/', { html: `<html><body>${Array.from({ length: PAGES }, (_, i) => `<a href="/${i}.html">${i}</a>`).join(' ')}</body></html>` });
    site(host, 0);
    top();
    const folder = join(dir, 'mom');
    const out = join(folder, 'index.html');
    const args = ['maintain', '--site', web.url(host, '/'), '--out', out, '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--progress', 'none'];
    const whole = await start(args).exited;
    assert.equal(whole.code, 0, whole.stderr);
    const complete = readFileSync(out, 'utf8');
    site(host, 500);
    top();
    const before = web.count(host);
    const run = start([...args, '--concurrency', '1']);
    for (let i = 0; i < 300 && web.count(host) < before + 3; i++) await new Promise((r) => setTimeout(r, 100));
    run.child.kill('SIGINT');
    const r = await run.exited;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /index written to .*index\.partial\.html/);
    assert.equal(readFileSync(out, 'utf8'), complete, 'the complete index is as it was');
    assert.ok(existsSync(join(folder, 'index.partial.html')));
    assert.equal(existsSync(join(folder, 'index.prev.html')), false, 'nothing rotated');
  });

  it('SIGTERM is Ctrl-C: the pages in flight are finished and saved, exit 130, nothing left leased', async () => {
    const db = `sqlite:${join(dir, 'term.sqlite')}`;
    await seeded(db, site('term.test', 300));
    const run = start(harvestArgs(db, '--concurrency', '2'));
    await walking('term.test');
    run.child.kill('SIGTERM');
    const r = await run.exited;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /finishing the pages in flight/);
    assert.match(r.stdout, /harvest stopped: interrupted/);
    const sum = await summary(db);
    assert.equal(sum.links.leased ?? 0, 0);
    assert.ok((sum.links.done ?? 0) > 0 && (sum.links.done ?? 0) < PAGES);
  });
});
