import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { heartbeatMs, leaseOwner, releaseDeadLeases, runActivity, type Activity } from '../../src/walk/walk.js';
import { hosts } from '../../src/walk/constraints/builtin.js';
import { rawSql, withSqliteStore } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * What runActivity keeps around every walk. Who holds a link, and for how long: a walk's leases
 * are in its process's name, renewed thrice a lease; a rerun on this machine takes back at once
 * the leases of processes here that are gone, and leaves those of the living and of other
 * machines to run out. And what a run leaves behind: its record, and the wheel it reports.
 */

describe('lease owners', () => {
  it('name this machine and this process, and differ between walks of one process', () => {
    const a = leaseOwner();
    const b = leaseOwner();
    const shape = new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${process.pid}:[0-9a-f]{6}$`);
    assert.match(a, shape);
    assert.match(b, shape);
    assert.notEqual(a, b);
  });

  it('renew a lease thrice before it runs out, at least every 250 ms and at most every 30 s', () => {
    assert.deepEqual([60_000, 1_000, 300, 750, 90_000, 91_000, 3_600_000].map(heartbeatMs), [20_000, 333, 250, 250, 30_000, 30_000, 30_000]);
  });
});

describe('a rerun frees the leases of processes that are gone', () => {
  it('those of a dead process on this machine only: not a living one\'s, nor another machine\'s, nor an owner it cannot read', () =>
    withSqliteStore(async (store, url) => {
      // A process that has ended: its pid is free.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const owners = {
        dead: `${hostname()}:${dead}:aaaaaa`,
        living: `${hostname()}:${process.pid}:bbbbbb`,
        elsewhere: `another-machine.example:${dead}:cccccc`,
        unreadable: `${hostname()}:not-a-pid:dddddd`,
      };
      for (const [name, owner] of Object.entries(owners)) {
        const link = `http://leases.test/${name}`;
        await store.addLinks([{ url: link, host: 'leases.test', depth: 0 }]);
        await rawSql(url, "UPDATE links SET status = 'leased', lease_owner = ?, lease_expires_at = ? WHERE url = ?", [owner, Date.now() + 600_000, link]);
      }
      assert.equal(await releaseDeadLeases(store), 1);
      const held = async (name: string) => {
        const l = (await store.linkByUrl(`http://leases.test/${name}`))!;
        return [l.status, l.leaseOwner ?? null];
      };
      assert.deepEqual(await held('dead'), ['pending', null]);
      for (const name of ['living', 'elsewhere', 'unreadable'] as const) assert.deepEqual(await held(name), ['leased', owners[name]], name);
    }));
});

let web: FlakyWeb;
before(async () => {
  web = await startFlakyWeb();
});
after(() => web.close());

const RUN = { strategy: 'bfs', concurrency: 1, seed: 1, leaseMs: 60_000, politeness: { delayMs: 0 } } as const;
const fetcher = () => ({ resolve: web.resolve, timeoutMs: 5_000 });

/** An activity whose pages pay `pays(host)` (nothing by default), carried on the outcome to the reward. */
const paying = (pays: (host: string) => number = () => 0): Activity => ({
  name: 'paying',
  constraints: [hosts(['*.test'])],
  act: async (page) => ({ outcome: { kind: 'walked', status: page.status, links: 0, score: pays(new URL(page.finalUrl).hostname) }, nodes: [], links: [] }),
  reward: (o) => (o.kind === 'walked' ? o.score ?? 0 : 0),
});

describe('a walk in progress', () => {
  it('renews the lease of a page slower than the lease, so no other process takes it', () =>
    withSqliteStore(async (store, url) => {
      web.page('slow-lease.test', '/a.html', { html: prose('slow lease'), delayMs: 1_500 });
      const page = web.url('slow-lease.test', '/a.html');
      await store.addLinks([{ url: page, host: 'slow-lease.test', depth: 0 }]);
      // A lease of 750 ms is beaten every 250 ms.
      const run = runActivity(store, paying(), { ...RUN, leaseMs: 750, fetcher: fetcher() }, {});
      const expiries: number[] = [];
      for (let i = 0; i < 60 && web.count('slow-lease.test', '/a.html') === 0; i++) await new Promise((r) => setTimeout(r, 25));
      for (let i = 0; i < 10; i++) {
        const [row] = await rawSql(url, 'SELECT lease_expires_at AS at FROM links WHERE url = ?', [page]);
        if (row?.at != null) expiries.push(Number(row.at));
        await new Promise((r) => setTimeout(r, 100));
      }
      const report = await run;
      assert.equal(report.stats.pagesFetched, 1);
      assert.ok(expiries.length >= 5, `the lease was seen ${expiries.length} times`);
      assert.ok(expiries.at(-1)! - expiries[0]! >= 500, `renewed: ${expiries.join(', ')}`);
    }));
});

describe('what a run leaves behind', () => {
  it('its record: the activity, the caller\'s parameters and the seed, and at its end why it stopped and its counts', () =>
    withSqliteStore(async (store) => {
      web.page('record.test', '/a.html', prose('record'));
      await store.addLinks([{ url: web.url('record.test', '/a.html'), host: 'record.test', depth: 0 }]);
      const report = await runActivity(store, paying(), { ...RUN, seed: 7, fetcher: fetcher() }, { maxDepth: 2 });
      const [run] = await store.runs(1);
      assert.equal(run!.id, report.runId);
      assert.deepEqual([run!.params, run!.seed], [{ activity: 'paying', maxDepth: 2 }, 7]);
      assert.deepEqual([run!.stats?.stop, run!.stats?.pagesFetched], ['frontier-empty', 1]);
      assert.ok(run!.endedAt !== null && run!.endedAt >= run!.startedAt);
    }));

  it('the wheel: each domain\'s score and its share of all the scores', () =>
    withSqliteStore(async (store) => {
      const pays: Record<string, number> = { 'three.test': 3, 'one.test': 1 };
      for (const host of Object.keys(pays)) {
        web.page(host, '/a.html', prose(host));
        await store.addLinks([{ url: web.url(host, '/a.html'), host, depth: 0 }]);
      }
      const report = await runActivity(store, paying((h) => pays[h]!), { ...RUN, fetcher: fetcher() }, {});
      assert.equal(report.stop, 'frontier-empty');
      // A domain starts at 1 (the thesis's wheel) and gains what its page paid: 4 and 2, of 6.
      assert.deepEqual(report.wheel.map((w) => [w.host, w.score, w.share]), [['three.test', 4, 4 / 6], ['one.test', 2, 2 / 6]]);
    }));
});
