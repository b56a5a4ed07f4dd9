import assert from 'node:assert/strict';
import { openStore } from '../../src/store/open.js';
import { maxInFlight } from '../../src/walk/engine.js';
import { startAnwc } from './cli.js';
import { prose } from './flaky.js';
import { startTestWeb } from './testweb.js';

/**
 * Three `anwc harvest` processes on one database (each may be given its own address of it, a
 * node of a cluster), interrupted mid-run by the caller (a process SIGKILLed, a node stopped):
 * together they are one crawl and as polite as one process. The server counts and times every
 * request, so what it saw is what the crawl did.
 */

const HOSTS = ['w1.test', 'w2.test', 'w3.test', 'w4.test'];
const PAGES = 10;
const DELAY_MS = 150;
const CONCURRENCY = 2;
/** Timer and scheduling slack at the server between two requests the claim spaced by the delay. */
const SLACK_MS = 15;

const path = (i: number) => `/p${i}.html`;

export interface Harvests {
  /** The three processes' children, in the order of their addresses. */
  children: import('node:child_process').ChildProcess[];
}

/**
 * Runs the three harvests; `midRun` is called once 8 pages were fetched and must SIGKILL the first
 * process (it may do more). Asserts every page fetched once (those in flight at the kill at most
 * twice), robots.txt once a host, each host's delay kept between all processes, no node lost, rewards summed, the frontier
 * finished by the survivors and no lease left.
 */
export async function threeHarvests(urls: [string, string, string], midRun: (h: Harvests) => Promise<void>): Promise<void> {
  const web = await startTestWeb();
  try {
    for (const h of HOSTS) {
      web.page(h, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
      for (let i = 0; i < PAGES; i++) web.page(h, path(i), `<html><body>${prose(`${h} ${i}`)}</body></html>`);
    }
    const store = await openStore(urls[0]);
    await store.addLinks(HOSTS.flatMap((h) => Array.from({ length: PAGES }, (_, i) => ({ url: web.url(h, path(i)), host: h, depth: 0 }))));
    await store.close();
    const args = (db: string) => ['harvest', '--db', db, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', String(DELAY_MS / 1000),
      '--concurrency', String(CONCURRENCY), '--lease', '2', '--progress', 'none'];
    const runs = urls.map((u) => startAnwc(args(u)));
    const pages = () => HOSTS.reduce((n, h) => n + web.arrivals(h).filter((a) => a.path !== '/robots.txt').length, 0);
    for (let waited = 0; pages() < 8; waited += 5) {
      assert.ok(waited < 30_000, 'the crawl started');
      await new Promise((r) => setTimeout(r, 5));
    }
    await midRun({ children: runs.map((r) => r.child) });
    const [killed, ...survivors] = await Promise.all(runs.map((r) => r.exited));
    assert.equal(killed!.code, null, 'killed mid-run');
    for (const s of survivors) assert.equal(s.code, 0, s.stderr);

    let twice = 0;
    for (const h of HOSTS) {
      for (let i = 0; i < PAGES; i++) {
        const n = web.count(h, path(i));
        assert.ok(n === 1 || n === 2, `${h}${path(i)} fetched ${n} times`);
        if (n === 2) twice++;
      }
      assert.equal(web.count(h, '/robots.txt'), 1, `${h}: robots.txt fetched once for all the processes`);
      const times = web.arrivals(h).filter((a) => a.path !== '/robots.txt').map((a) => a.at);
      for (let k = 1; k < times.length; k++) {
        assert.ok(times[k]! - times[k - 1]! >= DELAY_MS - SLACK_MS, `${h}: requests ${times[k]! - times[k - 1]!} ms apart, delay ${DELAY_MS} ms`);
      }
    }
    assert.ok(twice <= maxInFlight(CONCURRENCY), `${twice} pages fetched twice; only the killed process's pages in flight may be`);

    const after = await openStore(urls[1]);
    try {
      const sum = await after.summary();
      assert.deepEqual(sum.links, { done: HOSTS.length * PAGES }, 'the survivors finished the frontier');
      assert.equal(sum.nodes.crawler, HOSTS.length * PAGES, 'one node a page, none lost or doubled');
      for (const h of HOSTS) assert.equal((await after.domain(h))!.score, 1 + PAGES, `${h}: 1 + one reward for each of its pages`);
      assert.deepEqual(await after.liveWorkers(0).then((ws) => ws.filter((w) => w.leases > 0)), [], 'no worker holds a lease');
    } finally {
      await after.close();
    }
  } finally {
    await web.close();
  }
}
