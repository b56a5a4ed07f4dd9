import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UserError } from '../../src/errors.js';
import { openStore, parseDbUrl, redact } from '../../src/store/open.js';
import { openSqliteDb } from '../../src/store/sqlite/open.js';
import { startingAt } from '../../src/store/url.js';
import { MYSQL_BASE, mysqlDb, mysqlSocket, rawSql, viaSocket } from '../support/db.js';

const userError = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof UserError, `expected a UserError, got ${String(e)}`);
  assert.match(e.toLine(), pattern);
  return true;
};

describe('parseDbUrl', () => {
  it('reads the two accepted forms', () => {
    assert.deepEqual(parseDbUrl('sqlite:./anwc.sqlite'), { kind: 'sqlite', path: './anwc.sqlite' });
    assert.deepEqual(parseDbUrl('sqlite::memory:'), { kind: 'sqlite', path: ':memory:' });
    assert.deepEqual(parseDbUrl('mysql://ane:p%40ss@db.example:3307/narrative'), {
      kind: 'mysql', servers: [{ host: 'db.example', port: 3307 }], user: 'ane', password: 'p@ss', database: 'narrative',
    });
    assert.deepEqual(parseDbUrl('mysql://127.0.0.1/anwc'), {
      kind: 'mysql', servers: [{ host: '127.0.0.1', port: 3306 }], user: 'root', password: '', database: 'anwc',
    });
  });

  it('reads the servers of a cluster in the order given', () => {
    assert.deepEqual(parseDbUrl('mysql://ane:pw@n1.example:3311,n2.example,[::1]:3313/crawl'), {
      kind: 'mysql',
      servers: [{ host: 'n1.example', port: 3311 }, { host: 'n2.example', port: 3306 }, { host: '::1', port: 3313 }],
      user: 'ane', password: 'pw', database: 'crawl',
    });
  });

  it('reads a server on this machine by its Unix socket', () => {
    assert.deepEqual(parseDbUrl('mysql://ane:pw@localhost/anwc?socket=/run/mysqld/mysqld.sock'), {
      kind: 'mysql', servers: [{ host: 'localhost', port: 3306, socket: '/run/mysqld/mysqld.sock' }], user: 'ane', password: 'pw', database: 'anwc',
    });
    assert.equal((parseDbUrl('mysql://localhost/anwc?socket=%2Ftmp%2Fa%40b.sock') as { servers: { socket?: string }[] }).servers[0]!.socket, '/tmp/a@b.sock',
      'percent-encoded, a socket path may hold what the address itself would misread');
  });

  it('rotates the servers so that workers started together begin on different nodes', () => {
    const url = 'mysql://ane:p,w@a:1,b:2,c:3/crawl';
    assert.equal(startingAt(url, 0), url);
    assert.equal(startingAt(url, 1), 'mysql://ane:p,w@b:2,c:3,a:1/crawl');
    assert.equal(startingAt(url, 5), 'mysql://ane:p,w@c:3,a:1,b:2/crawl');
    assert.equal(startingAt('mysql://a:1/crawl', 1), 'mysql://a:1/crawl');
    assert.equal(startingAt('sqlite:x.sqlite', 1), 'sqlite:x.sqlite');
  });

  for (const [value, why] of [
    ['anwc.sqlite', /is not a database address/],
    ['postgres://u@h/db', /is not a database address/],
    ['sqlite:', /names no SQLite file/],
    ['mysql://root@127.0.0.1:3306/', /names no MySQL database/],
    ['mysql://root@127.0.0.1:3306/bad-name', /database name other than letters/],
    ['mysql://root@127.0.0.1:99999/db', /not a valid MySQL address/],
    ['mysql://root@a:1,,b:2/db', /names no MySQL host/],
    ['mysql://root@a:1,b:x/db', /not a valid MySQL address/],
    ['mysql://root@localhost/db?sock=/run/mysqld/mysqld.sock', /has an option "sock"; the one option it takes is socket=PATH/],
    ['mysql://root@localhost/db?socket=', /names no socket file after socket=/],
    ['mysql://root@a,b/db?socket=/run/mysqld/mysqld.sock', /names a socket and several servers/],
  ] as const) {
    it(`refuses ${JSON.stringify(value)} naming the value and both forms`, () => {
      assert.throws(() => parseDbUrl(value), userError(why));
      assert.throws(() => parseDbUrl(value), userError(/sqlite:PATH .*mysql:\/\/user:pass@host:port\/db/));
      assert.throws(() => parseDbUrl(value), (e: unknown) => e instanceof UserError && e.toLine().includes(`(got ${JSON.stringify(value)})`));
    });
  }

  it('never prints a password', () => {
    assert.equal(redact('mysql://ane:secret@h:1/db'), 'mysql://ane:***@h:1/db');
    assert.throws(() => parseDbUrl('mysql://ane:secret@h:1/'), (e: unknown) => e instanceof UserError && !e.toLine().includes('secret'));
  });
});

describe('openStore', () => {
  it('turns an unreachable MySQL into one line with a hint', async () => {
    await assert.rejects(openStore('mysql://root@127.0.0.1:1/anwc'),
      userError(/^cannot connect to MySQL at 127\.0\.0\.1:1 \(ECONNREFUSED\); is the server running\?; start it/));
    await assert.rejects(openStore('mysql://root@127.0.0.1:1,127.0.0.1:2/anwc'),
      userError(/^cannot connect to MySQL at 127\.0\.0\.1:1,127\.0\.0\.1:2 \(ECONNREFUSED\)/));
  });

  it('turns a missing socket file into one line with a hint', async () => {
    await assert.rejects(openStore('mysql://root@localhost/anwc?socket=/nonexistent/mysqld.sock'),
      userError(/^cannot connect to MySQL at \/nonexistent\/mysqld\.sock \(ENOENT\); is the server running\?; start it, or fix the socket path in --db/));
  });

  it('reaches a MySQL server on this machine through its Unix socket, not TCP', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, async (t) => {
    const socket = await mysqlSocket();
    if (!socket) {
      t.skip("the MySQL server's Unix socket is not on this machine");
      return;
    }
    const db = mysqlDb();
    const name = new URL(db.url).pathname.slice(1);
    const store = await openStore(viaSocket(db.url, socket));
    try {
      await store.addLinks([{ url: 'http://sea.test/', host: 'sea.test', depth: 0 }]);
      assert.equal((await store.linkByUrl('http://sea.test/'))?.url, 'http://sea.test/');
      // A client on a socket is 'localhost' in the server's process list; one on TCP would be 127.0.0.1:PORT.
      const clients = await rawSql(MYSQL_BASE, 'SELECT HOST AS host FROM information_schema.PROCESSLIST WHERE DB = ?', [name]);
      assert.ok(clients.length > 0);
      assert.deepEqual([...new Set(clients.map((c) => c.host))], ['localhost']);
    } finally {
      await store.close();
      await db.cleanup();
    }
  });

  it('turns a folder that cannot hold the SQLite file into one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-open-'));
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    try {
      await assert.rejects(openStore(`sqlite:${notAFolder}/sub/x.sqlite`), userError(/^cannot open SQLite database .*ENOTDIR.*; check that the folder/));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when the file is not a SQLite database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-open-'));
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'these are not the tables you are looking for\n'.repeat(100));
    try {
      await assert.rejects(openStore(`sqlite:${path}`), userError(/is not a SQLite database \(SQLITE_NOTADB\); point --db at/));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('openSqliteDb', () => {
  it('sizes the page cache when asked, and leaves better-sqlite3\'s 16 MB otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-cache-'));
    try {
      const small = openSqliteDb(join(dir, 'a.sqlite'), { cacheKib: 2000 });
      const plain = openSqliteDb(join(dir, 'b.sqlite'));
      assert.equal(small.pragma('cache_size', { simple: true }), -2000);
      assert.equal(plain.pragma('cache_size', { simple: true }), -16000);
      small.close();
      plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
