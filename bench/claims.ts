import { pathToFileURL } from 'node:url';
import { openStore } from '../src/store/open.js';
import { startingAt } from '../src/store/url.js';
import type { Store } from '../src/store/store.js';
import { benchMysql, mysqlDb, sqliteDb, type TestDb } from '../test/support/db.js';
import { clusterDb, GALERA_BASE } from '../test/support/galera.js';
import { count } from './knobs.js';

/**
 * What the shared frontier itself can hand out: claims (lease a host's next link under its
 * politeness) and completions (a page done, no node) per second, with no fetching at all, by W
 * claimers at once, on SQLite, on MariaDB/MySQL (ANWC_TEST_MYSQL) and on a Galera cluster
 * (ANWC_TEST_GALERA; the claimers spread over its nodes). This is the ceiling the store puts on
 * a crawl of any size, the figure docs/scale.md reasons from.
 *
 *   npx tsc -p . && ANWC_TEST_MYSQL=mysql://root@127.0.0.1:3306/ node dist/bench/run.js claims
 *
 * Knobs: BENCH_CLAIMS_HOSTS (50), BENCH_CLAIMS_LINKS (40 per host), BENCH_CLAIMS_CLAIMERS (8).
 */

const HOSTS = count('BENCH_CLAIMS_HOSTS', 50);
const LINKS = count('BENCH_CLAIMS_LINKS', 40);
const CLAIMERS = count('BENCH_CLAIMS_CLAIMERS', 8);

interface Backend {
  name: string;
  fresh: () => TestDb;
  /** The address claimer k uses (a cluster's node k first). */
  urlFor: (db: TestDb, k: number) => string;
}

/** Pages stored, and claims answered whose lease the store did not hold when the page came back (none, in a sound store). */
async function claimAll(stores: Store[], domainIds: number[]): Promise<{ pages: number; lost: number }> {
  let pages = 0;
  let lost = 0;
  await Promise.all(Array.from({ length: CLAIMERS }, async (_, k) => {
    const store = stores[k % stores.length]!;
    const owner = `claimer-${k}`;
    // Each claimer walks the hosts from its own place, as workers drawing from one wheel would.
    for (let i = k, empty = 0; empty < domainIds.length; i++) {
      const domainId = domainIds[i % domainIds.length]!;
      const got = await store.claimNextLink(domainId, owner, { leaseMs: 60_000, now: Date.now(), order: 'discovery', perHost: 1000, gapMs: 0 });
      if (!('links' in got)) {
        empty++;
        continue;
      }
      empty = 0;
      const done = await store.completePage({ linkId: got.links[0]!.id, owner, status: 'done', outcome: { kind: 'bench' }, nodes: [], newLinks: [], domainReward: 1 });
      if (done.applied) pages++;
      else lost++;
    }
  }));
  return { pages, lost };
}

async function runOnce(b: Backend): Promise<{ pages: number; lost: number; ms: number }> {
  const db = b.fresh();
  try {
    const setup = await openStore(b.urlFor(db, 0));
    const links = [];
    for (let h = 0; h < HOSTS; h++) for (let p = 0; p < LINKS; p++) links.push({ url: `http://h${h}.claims.test/p${p}`, host: `h${h}.claims.test`, depth: 0 });
    for (let i = 0; i < links.length; i += 500) await setup.addLinks(links.slice(i, i + 500));
    const domainIds = await Promise.all(Array.from({ length: HOSTS }, async (_, h) => (await setup.domain(`h${h}.claims.test`))!.id));
    await setup.close();
    const stores = await Promise.all(Array.from({ length: Math.min(CLAIMERS, 3) }, (_, k) => openStore(b.urlFor(db, k))));
    try {
      const t0 = performance.now();
      const claimed = await claimAll(stores, domainIds);
      return { ...claimed, ms: performance.now() - t0 };
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  } finally {
    await db.cleanup();
  }
}

export async function main(): Promise<string> {
  const backends: Backend[] = [{ name: 'SQLite', fresh: sqliteDb, urlFor: (db) => db.url }];
  if (benchMysql()) backends.push({ name: 'MariaDB/MySQL', fresh: mysqlDb, urlFor: (db) => db.url });
  if (GALERA_BASE) {
    backends.push({ name: 'Galera, 3 nodes', fresh: clusterDb, urlFor: (db, k) => startingAt(db.url, k) });
  }
  const rows: string[] = [];
  for (const b of backends) {
    const r = await runOnce(b);
    rows.push(`| ${b.name} | ${CLAIMERS} | ${r.pages} | ${r.lost} | ${(r.ms / 1000).toFixed(2)} | ${((r.pages / r.ms) * 1000).toFixed(0)} |`);
  }
  return [
    `## The shared frontier alone: claim + complete of ${HOSTS} hosts × ${LINKS} links, ${CLAIMERS} claimers at once, no fetching`,
    '',
    '| store | claimers | pages | claims not held | seconds | pages/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'One page is one claim transaction (the host\'s row locked, its next link leased) and one completion',
    'transaction (the lease checked, the link done, the domain rewarded). The claimers share one process',
    '(up to three stores, one per cluster node). A claim not held is one the store answered with a link whose',
    'lease it did not hold when the page came back: 0 in a sound store.',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
