import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harvest, type HarvestOptions } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import { sqliteDb } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * The fetch step's robots.txt, asked per origin (RFC 9309 §2.3: scheme, host and port), in memory
 * and in the store: two servers on two ports of one host name, one closed to crawlers, one open.
 */

let closed: FlakyWeb;
let open: FlakyWeb;
before(async () => {
  [closed, open] = await Promise.all([startFlakyWeb(), startFlakyWeb()]);
});
after(() => Promise.all([closed.close(), open.close()]));

const HOST = 'ports.test';

function options(): HarvestOptions {
  return {
    strategy: 'bfs', concurrency: 1, seed: 1, reward: 1, maxDepth: 0, hosts: ['*.test'], leaseMs: 60_000,
    fetcher: { resolve: ['ports.test:127.0.0.1'], timeoutMs: 5_000 },
    politeness: { delayMs: 0 },
    narrative: {},
  };
}

describe('robots.txt per origin', () => {
  it('the rules of one port are not applied to another port of the host, in a run or in the next', async () => {
    closed.page(HOST, '/robots.txt', 'User-agent: *\nDisallow: /\n');
    open.page(HOST, '/robots.txt', 'User-agent: *\nDisallow: /private\n');
    for (const web of [closed, open]) for (const p of ['/a.html', '/b.html']) web.page(HOST, p, prose(`${web.port}${p}`));
    const db = sqliteDb();
    const store = await openStore(db.url);
    try {
      // Each order once: the origin read first must not speak for the other.
      for (const [first, second, page] of [[closed, open, '/a.html'], [open, closed, '/b.html']] as const) {
        await store.addLinks([first, second].map((web) => ({ url: web.url(HOST, page), host: HOST, depth: 0 })));
        await harvest(store, options());
        const [c, o] = await Promise.all([store.linkByUrl(closed.url(HOST, page)), store.linkByUrl(open.url(HOST, page))]);
        assert.deepEqual([c!.status, c!.outcome?.kind], ['excluded', 'robots'], `${page} on the closed port`);
        assert.deepEqual([o!.status, o!.outcome?.kind], ['done', 'harvested'], `${page} on the open port`);
      }
      assert.equal(closed.count(HOST, '/a.html') + closed.count(HOST, '/b.html'), 0, 'the closed port was never asked for a page');
      assert.equal(open.count(HOST, '/a.html') + open.count(HOST, '/b.html'), 2);
      assert.deepEqual([closed.count(HOST, '/robots.txt'), open.count(HOST, '/robots.txt')], [1, 1], 'each read once, then kept per origin across runs');
    } finally {
      await store.close();
      await db.cleanup();
    }
  });
});
