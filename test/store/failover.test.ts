import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { MYSQL_BASE, mysqlDb, viaSocket } from '../support/db.js';

/**
 * A `--db` that names several servers (the nodes of a cluster) goes on to the next one when the
 * one it works on is lost. The lost node is a TCP relay to the test MariaDB that the test shuts,
 * cutting every connection through it as a stopped node would; the next server is MariaDB itself.
 */

interface Relay {
  port: number;
  /** Closes the listener and cuts every connection through it. */
  cut(): Promise<void>;
}

/** On loopback TCP, or on a Unix socket at `path` (Node removes the file when it closes, as a server that stops does). */
async function relayTo(host: string, port: number, path?: string): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(port, host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((r) => (path === undefined ? server.listen(0, '127.0.0.1', r) : server.listen(path, r)));
  return {
    port: path === undefined ? (server.address() as { port: number }).port : 0,
    cut: async () => {
      const closed = new Promise((r) => server.close(r));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** The test database's address with these servers in place of the one in ANWC_TEST_MYSQL. */
function withServers(url: string, servers: string): string {
  const u = new URL(url);
  return url.replace(`@${u.host}/`, `@${servers}/`).replace(`mysql://${u.host}/`, `mysql://${servers}/`);
}

/** The test MariaDB, where the relays lead; read when a suite runs, as ANWC_TEST_MYSQL=off names no server. */
function testServer(): { host: string; port: number } {
  const base = new URL(MYSQL_BASE);
  return { host: base.hostname, port: base.port === '' ? 3306 : Number(base.port) };
}

describe('a MySQL address with several servers', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, () => {
  it('passes over a server that is down at start', async () => {
    const { host, port } = testServer();
    const db = mysqlDb();
    try {
      const store = await openStore(withServers(db.url, `127.0.0.1:1,${host}:${port}`));
      try {
        assert.equal(await store.addLinks([{ url: 'http://a.test/', host: 'a.test', depth: 0 }]), 1);
        assert.equal((await store.summary()).links.pending, 1);
      } finally {
        await store.close();
      }
    } finally {
      await db.cleanup();
    }
  });

  it('goes on to the next server when the one it works on is lost mid-run, losing no write', async () => {
    const { host, port } = testServer();
    const db = mysqlDb();
    const relay = await relayTo(host, port);
    try {
      const store = await openStore(withServers(db.url, `127.0.0.1:${relay.port},${host}:${port}`));
      try {
        const page = (i: number) => ({ url: `http://a.test/${i}`, host: 'a.test', depth: 0 });
        let added = 0;
        for (let i = 0; i < 20; i++) added += await store.addLinks([page(i)]);
        await relay.cut();
        // Reads and transactions alike, several at once as a harvest's pages in flight are.
        const more = await Promise.all(Array.from({ length: 20 }, (_, i) => store.addLinks([page(20 + i)])));
        added += more.reduce((a, b) => a + b, 0);
        assert.equal(added, 40);
        assert.equal((await store.summary()).links.pending, 40);
      } finally {
        await store.close();
      }
    } finally {
      await relay.cut().catch(() => undefined);
      await db.cleanup();
    }
  });
});

describe('a MySQL server reached by its Unix socket', { skip: process.env.ANWC_TEST_MYSQL === 'off' }, () => {
  it('is waited for while it restarts (its socket file gone), losing no write', async () => {
    const { host, port } = testServer();
    const dir = mkdtempSync(join(tmpdir(), 'anwc-socket-'));
    const path = join(dir, 'mysqld.sock');
    const db = mysqlDb();
    let relay = await relayTo(host, port, path);
    try {
      const store = await openStore(viaSocket(db.url, path));
      try {
        assert.equal(await store.addLinks([{ url: 'http://a.test/0', host: 'a.test', depth: 0 }]), 1);
        await relay.cut();
        assert.ok(!existsSync(path), 'the socket file went with the server');
        const writes = Promise.all(Array.from({ length: 5 }, (_, i) => store.addLinks([{ url: `http://a.test/${i + 1}`, host: 'a.test', depth: 0 }])));
        await new Promise((r) => setTimeout(r, 400));
        relay = await relayTo(host, port, path);
        assert.deepEqual(await writes, [1, 1, 1, 1, 1]);
        assert.equal((await store.summary()).links.pending, 6);
      } finally {
        await store.close();
      }
    } finally {
      await relay.cut().catch(() => undefined);
      await db.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
