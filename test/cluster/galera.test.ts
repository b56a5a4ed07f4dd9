import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openMysqlPool, type MysqlTarget } from '../../src/store/mysql/open.js';
import { openStore } from '../../src/store/open.js';
import { parseDbUrl, startingAt } from '../../src/store/url.js';
import { clusterDb, galeraScript, isolateNode, needsGalera, statusSum } from '../support/galera.js';
import { threeHarvests } from '../support/three-harvests.js';

/**
 * The MySQL store on a three-node MariaDB Galera cluster (issue: scale-out). Row locks are each
 * node's own there, so what keeps two nodes from handing out one link is certification: these
 * tests make the nodes race for the same rows and count the conflicts the cluster settled.
 */

const skip = needsGalera();

describe('on a Galera cluster', { skip }, () => {
  it('sends one statement a round trip: an abort between two statements of one trip would go unreported', async () => {
    const db = clusterDb();
    try {
      const pool = await openMysqlPool(parseDbUrl(db.url) as MysqlTarget);
      await pool.end();
      assert.equal(pool.batches, false);
    } finally {
      await db.cleanup();
    }
  });

  it('three processes that open a new database at once, one per node, all open it', async () => {
    const db = clusterDb();
    try {
      const opened = await Promise.allSettled([0, 1, 2].map((n) => openStore(db.on(n))));
      const failed = opened.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => String(o.reason));
      await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)));
      assert.deepEqual(failed, [], 'the migration lock is each node\'s own: the others ran the same migration alongside');
      const store = await openStore(db.url);
      await store.close();
    } finally {
      await db.cleanup();
    }
  });

  it('a node cut off from the others answers "not ready" (1047): the store leaves it for another node and its work goes on', async () => {
    const db = clusterDb();
    const cut = db.servers[2]!;
    try {
      await (await openStore(db.url)).close();
      const store = await openStore(startingAt(db.url, 2));
      try {
        await store.addLinks([{ url: 'http://before.test/', host: 'before.test', depth: 0 }]);
        await isolateNode(cut, true);
        try {
          await store.addLinks([{ url: 'http://after.test/', host: 'after.test', depth: 0 }]);
          const other = await openStore(db.on(0));
          try {
            assert.ok(await other.linkByUrl('http://after.test/'), 'written on a node of the primary component');
          } finally {
            await other.close();
          }
        } finally {
          await isolateNode(cut, false);
        }
      } finally {
        await store.close();
      }
    } finally {
      await db.cleanup();
    }
  });

  it('two nodes racing for the links of one host never lease one link twice', async () => {
    const db = clusterDb();
    const LINKS = 120;
    try {
      // Made (and migrated) on one node first, so the race below is for links only.
      await (await openStore(db.url)).close();
      const conflictsBefore = await statusSum(db.servers, ['wsrep_local_cert_failures', 'wsrep_local_bf_aborts']);
      const nodes = await Promise.all([openStore(db.on(0)), openStore(db.on(1))]);
      const perNode: [number, number] = [0, 0];
      try {
        // A node may win every row of a round (its connections were ready first): a new host is raced
        // again, up to three rounds, until each node has leased some; every round must be clean.
        for (let round = 0; round < 3 && (perNode[0] === 0 || perNode[1] === 0); round++) {
          const host = `race${round}.test`;
          await nodes[0]!.addLinks(Array.from({ length: LINKS }, (_, i) => ({ url: `http://${host}/${i}`, host, depth: 0 })));
          const domainId = (await nodes[0]!.domain(host))!.id;
          // Galera applies a write set on the other nodes a little after the commit returns; the links
          // came in one transaction with their host, so a node that sees the host sees them all.
          await Promise.all(nodes.map(async (s, n) => {
            for (let waited = 0; !(await s.domain(host)); waited += 20) {
              assert.ok(waited < 10_000, `node ${n} saw the host within 10 s`);
              await new Promise((r) => setTimeout(r, 20));
            }
          }));
          // Each node's store leases with four connections at once until the host runs dry.
          const leased: number[][] = [[], []];
          const ownerOf = new Map<number, string>();
          await Promise.all(nodes.flatMap((store, n) => Array.from({ length: 4 }, async (_, k) => {
            for (;;) {
              const link = await store.leaseNextLink(domainId, `node${n}-${k}`, 600_000);
              if (!link) return;
              leased[n]!.push(link.id);
              ownerOf.set(link.id, link.leaseOwner!);
            }
          })));
          const all = leased.flat();
          assert.equal(new Set(all).size, all.length, `no link leased twice (round ${round})`);
          // A lease handed out was committed: the cluster rolled back no claim the store answered.
          for (const [n, ids] of leased.entries()) {
            for (const id of ids) assert.equal((await nodes[n]!.link(id))!.leaseOwner, ownerOf.get(id), `link ${id} is leased as answered`);
          }
          assert.equal(all.length, LINKS, `every link leased (round ${round})`);
          perNode[0] += leased[0]!.length;
          perNode[1] += leased[1]!.length;
        }
      } finally {
        await Promise.all(nodes.map((s) => s.close()));
      }
      assert.ok(perNode[0] > 0 && perNode[1] > 0, `both nodes leased (${perNode[0]}, ${perNode[1]})`);
      const conflicts = await statusSum(db.servers, ['wsrep_local_cert_failures', 'wsrep_local_bf_aborts']) - conflictsBefore;
      assert.ok(conflicts > 0, 'the nodes did race for the same rows, and the cluster failed the losers');
    } finally {
      await db.cleanup();
    }
  });

  it('three harvest processes, one per node, one SIGKILLed and one node stopped mid-run: one crawl, nothing lost', async () => {
    const db = clusterDb();
    let stopped = false;
    try {
      // Each process starts on its own node and fails over to the others in turn.
      const urls = [0, 1, 2].map((k) => startingAt(db.url, k)) as [string, string, string];
      await threeHarvests(urls, async ({ children }) => {
        children[0]!.kill('SIGKILL');
        galeraScript('stop-node', 3);
        stopped = true;
      });
    } finally {
      if (stopped) galeraScript('start-node', 3);
      await db.cleanup();
    }
  });
});
