import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { heartbeatMs, leaseOwner, releaseDeadLeases, runActivity, type Activity } from '../../src/walk/walk.js';
import { hosts } from '../../src/walk/constraints/builtin.js';
import { rawSql, withSqliteStore } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * Who holds a link, and for how long: a walk's leases are in its process's name, renewed thrice a
 * lease; a rerun on this machine takes back at once the leases of processes here that are gone,
 * and leaves those of the living and of other machines to run out. And what a run reports of the
 * wheel it leaves behind.
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

describe('the wheel a run reports', () => {
  let web: FlakyWeb;
  before(async () => {
    web = await startFlakyWeb();
  });
  after(() => web.close());

  it('gives each domain its score and its share of all the scores', () =>
    withSqliteStore(async (store) => {
      // What a host's page pays, carried on its outcome to the reward.
      const pays: Record<string, number> = { 'three.test': 3, 'one.test': 1 };
      for (const host of Object.keys(pays)) {
        web.page(host, '/a.html', prose(host));
        await store.addLinks([{ url: web.url(host, '/a.html'), host, depth: 0 }]);
      }
      const activity: Activity = {
        name: 'wheel',
        constraints: [hosts(['*.test'])],
        act: async (page) => ({ outcome: { kind: 'walked', status: page.status, links: 0, score: pays[new URL(page.finalUrl).hostname]! }, nodes: [], links: [] }),
        reward: (o) => (o.kind === 'walked' ? o.score ?? 0 : 0),
      };
      const report = await runActivity(store, activity, {
        strategy: 'bfs', concurrency: 1, seed: 1, leaseMs: 60_000,
        fetcher: { resolve: web.resolve, timeoutMs: 5_000 }, politeness: { delayMs: 0 },
      }, {});
      assert.equal(report.stop, 'frontier-empty');
      // A domain starts at 1 (the thesis's wheel) and gains what its page paid: 4 and 2, of 6.
      assert.deepEqual(report.wheel.map((w) => [w.host, w.score, w.share]), [['three.test', 4, 4 / 6], ['one.test', 2, 2 / 6]]);
    }));
});
