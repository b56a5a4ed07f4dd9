import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { startingAt } from '../../src/store/url.js';
import { clusterDb, galeraScript, needsGalera, statusSum } from '../support/galera.js';
import { threeHarvests } from '../support/three-harvests.js';

/**
 * The MySQL store on a three-node MariaDB Galera cluster (issue: scale-out). Row locks are each
 * node's own there, so what keeps two nodes from handing out one link is certification: these
 * tests make the nodes race for the same rows and count the conflicts the cluster settled.
 */

const skip = needsGalera();

describe('on a Galera cluster', { skip }, () => {
  it('two nodes racing for the links of one host never lease one link twice', async () => {
    const db = clusterDb();
    const LINKS = 120;
    try {
      const setup = await openStore(db.url);
      await setup.addLinks(Array.from({ length: LINKS }, (_, i) => ({ url: `http://race.test/${i}`, host: 'race.test', depth: 0 })));
      const domainId = (await setup.domain('race.test'))!.id;
      await setup.close();
      const conflictsBefore = await statusSum(db.servers, ['wsrep_local_cert_failures', 'wsrep_local_bf_aborts']);

      // Each node's store leases with four connections at once until the host runs dry.
      const nodes = await Promise.all([openStore(db.on(0)), openStore(db.on(1))]);
      const leased: number[][] = [[], []];
      try {
        await Promise.all(nodes.flatMap((store, n) => Array.from({ length: 4 }, async (_, k) => {
          for (;;) {
            const link = await store.leaseNextLink(domainId, `node${n}-${k}`, 600_000);
            if (!link) return;
            leased[n]!.push(link.id);
          }
        })));
      } finally {
        await Promise.all(nodes.map((s) => s.close()));
      }
      const all = leased.flat();
      assert.equal(new Set(all).size, all.length, 'no link leased twice');
      assert.equal(all.length, LINKS, 'every link leased');
      assert.ok(leased[0]!.length > 0 && leased[1]!.length > 0, `both nodes leased (${leased[0]!.length}, ${leased[1]!.length})`);
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
