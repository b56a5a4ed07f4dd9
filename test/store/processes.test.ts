import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';

/**
 * Several anwc processes on one database (DESIGN: "how a crawl outgrows one machine"): each
 * process adds the same links, then leases and completes pages until none is left. Run as a
 * worker when ANWC_STORE_WORKER names a database; otherwise it is the test that starts them.
 */
const LINKS = 240;
const HOSTS = ['a.test', 'b.test', 'c.test'];
const WORKERS = 3;

async function work(url: string, owner: string): Promise<number[]> {
  const store: Store = await openStore(url);
  try {
    const links = Array.from({ length: LINKS }, (_, i) => ({ url: `http://${HOSTS[i % HOSTS.length]}/p${i}`, host: HOSTS[i % HOSTS.length]!, depth: 0 }));
    for (let i = 0; i < LINKS; i += 40) await store.addLinks(links.slice(i, i + 40));
    const [meta] = await store.ensureMetaWords([{ word: 'shared', stem: 'share' }]);
    const leased: number[] = [];
    for (;;) {
      const domains = await store.domainsWithPending();
      if (domains.length === 0) return leased;
      for (const d of domains) {
        const link = await store.leaseNextLink(d.id, owner, 60_000);
        if (!link) continue;
        leased.push(link.id);
        await store.completePage({
          linkId: link.id, owner, outcome: { kind: 'harvested' }, domainReward: 1, newLinks: [],
          nodes: [
            { text: `The paragraph every page of ${link.host} repeats.`, sentences: [], metaWordIds: [meta!.id] },
            { text: `The paragraph only ${link.url} has.`, sentences: [], metaWordIds: [meta!.id] },
          ],
        });
      }
    }
  } finally {
    await store.close();
  }
}

if (process.env.ANWC_STORE_WORKER) {
  const leased = await work(process.env.ANWC_STORE_WORKER, `pid-${process.pid}`);
  process.stdout.write(JSON.stringify(leased));
} else {
  // Only loader flags carry over (tsx when run from source); the test runner's own flags must not.
  const loaders = process.execArgv.filter((a, i, all) => a.startsWith('--import') || all[i - 1] === '--import');
  const runWorker = (url: string) =>
    new Promise<number[]>((done, fail) => {
      const child = spawn(process.execPath, [...loaders, fileURLToPath(import.meta.url)], {
        env: { ...process.env, ANWC_STORE_WORKER: url }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('exit', (code) => (code === 0 ? done(JSON.parse(out) as number[]) : fail(new Error(`worker exited ${code}: ${err}`))));
    });

  const cooperate = (name: string, fresh: () => TestDb) =>
    it(`${WORKERS} processes share one ${name} database: every link leased once, no node twice, counters exact`, async () => {
      const db = fresh();
      try {
        // The schema is created by the first open, as `anwc` would on a new database.
        await (await openStore(db.url)).close();
        const results = await Promise.all(Array.from({ length: WORKERS }, () => runWorker(db.url)));
        const all = results.flat();
        assert.equal(all.length, LINKS, `leased ${all.length} times for ${LINKS} links`);
        assert.equal(new Set(all).size, LINKS, 'no link leased twice');
        const store = await openStore(db.url);
        try {
          const nodes = await store.nodes({ origin: 'crawler' });
          assert.equal(nodes.length, LINKS + HOSTS.length);
          for (const h of HOSTS) {
            const d = (await store.domain(h))!;
            assert.deepEqual([d.pages, d.nodes, d.score], [LINKS / HOSTS.length, (2 * LINKS) / HOSTS.length, 1 + LINKS / HOSTS.length], h);
          }
        } finally {
          await store.close();
        }
      } finally {
        await db.cleanup();
      }
    });

  describe('processes on one database', () => {
    cooperate('SQLite', sqliteDb);
    if (process.env.ANWC_TEST_MYSQL !== 'off') cooperate('MariaDB/MySQL', mysqlDb);
  });
}
