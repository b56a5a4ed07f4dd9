import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harvest, type HarvestOptions } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { BOUND_SHARE, type DelayBound } from '../../src/walk/delay-watch.js';
import { maxInFlight } from '../../src/walk/engine.js';
import { DEFAULT_MAX_RETRIES } from '../../src/walk/retry.js';
import type { StrategyName } from '../../src/walk/strategies/strategy.js';
import { runActivity, type Activity } from '../../src/walk/walk.js';
import { ROBOTS_RETRY_BASE_MS, type RobotsRules } from '../../src/web/robots.js';
import { rawSql, sqliteDb, withSqliteStore } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * The walker's behaviour, pinned where it is easy to break unseen: politeness is asked before
 * every fetch and is the only judge of how many requests a host gets; the wheel learns each
 * page's reward; a resumed run draws with the scores the store kept; transient failures come back
 * and permanent ones do not; the run's own settings refuse without judging the link. Counted at
 * the server, where politeness matters.
 */

let web: FlakyWeb;
before(async () => {
  web = await startFlakyWeb();
});
after(() => web.close());

function options(over: Partial<HarvestOptions> = {}, politeness: HarvestOptions['politeness'] = {}): HarvestOptions {
  return {
    strategy: 'roulette', concurrency: 4, seed: 11, reward: 1, maxDepth: 3, hosts: ['*.test'], leaseMs: 60_000,
    // A pool wider than politeness allows, so that only politeness can hold a host to its share.
    fetcher: { resolve: web.resolve, timeoutMs: 5_000, connectionsPerOrigin: 4 },
    politeness: { delayMs: 0, backoffBaseMs: 10, backoffMaxMs: 40, maxTries: 10, ...politeness },
    narrative: {},
    ...over,
  };
}

async function seedLinks(store: Store, host: string, paths: string[]): Promise<void> {
  await store.addLinks(paths.map((p) => ({ url: web.url(host, p), host, depth: 0 })));
}

const pages = (n: number) => Array.from({ length: n }, (_, i) => `/${i}.html`);

describe('politeness decides per host', () => {
  it('one request at a time to a host by default, though four fetch slots are free', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(6)) web.page('one.test', p, { html: prose(p), delayMs: 120 });
      await seedLinks(store, 'one.test', pages(6));
      const report = await harvest(store, options());
      assert.equal(report.stats.pagesFetched, 6);
      assert.equal(web.maxConcurrent('one.test'), 1);
    }));

  it('--per-host 2 allows exactly two requests to a host at once', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(8)) web.page('two.test', p, { html: prose(p), delayMs: 150 });
      await seedLinks(store, 'two.test', pages(8));
      const report = await harvest(store, options({}, { perHost: 2 }));
      assert.equal(report.stats.pagesFetched, 8);
      assert.equal(web.maxConcurrent('two.test'), 2);
    }));

  it('--per-host 3 gets three at once from a fetcher whose pool is one connection a host: the pool grows to politeness', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(9)) web.page('three-at-once.test', p, { html: prose(p), delayMs: 150 });
      await seedLinks(store, 'three-at-once.test', pages(9));
      const base = options({}, { perHost: 3 });
      const report = await harvest(store, { ...base, fetcher: { ...base.fetcher, connectionsPerOrigin: 1 } });
      assert.equal(report.stats.pagesFetched, 9);
      assert.equal(web.maxConcurrent('three-at-once.test'), 3);
    }));

  it('the delay spaces the starts of requests to one host', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(4)) web.page('slowpoke.test', p, prose(p));
      await seedLinks(store, 'slowpoke.test', pages(4));
      await harvest(store, options({}, { delayMs: 150 }));
      const starts = web.hits('slowpoke.test').map((h) => h.start).sort((a, b) => a - b);
      assert.equal(starts.length, 5, 'robots.txt and four pages');
      for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 140, `gap ${starts[i]! - starts[i - 1]!} ms`);
    }));
});

describe('what sets the pace', () => {
  /** What the progress hook was told of the delay's bound, one entry a report (undefined: not bounded). */
  async function bounds(store: Store, politeness: HarvestOptions['politeness']): Promise<(DelayBound | undefined)[]> {
    const seen: (DelayBound | undefined)[] = [];
    await harvest(store, options({}, politeness), { onProgress: (_s, x) => seen.push(x.delayBound) });
    assert.ok(seen.length > 0, 'a run of a few seconds reports its progress');
    return seen;
  }

  it('a walk that mostly waits on a host\'s delay with slots free is reported bounded by it, with the delay in force', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(6)) web.page('paced.test', p, prose(p));
      await seedLinks(store, 'paced.test', pages(6));
      const { share, ...rest } = (await bounds(store, { delayMs: 400 })).filter((b) => b !== undefined).at(-1) ?? { share: 0 };
      assert.ok(share >= BOUND_SHARE, String(share));
      assert.deepEqual(rest, { host: 'paced.test', hosts: 1, delayMs: 400, baseDelayMs: 400, perHost: 1, concurrency: 4 });
    }));

  it('a walk that waits on slow answers is not, though it has a delay too', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(5)) web.page('sluggish.test', p, { html: prose(p), delayMs: 600 });
      await seedLinks(store, 'sluggish.test', pages(5));
      assert.deepEqual((await bounds(store, { delayMs: 100 })).filter((b) => b !== undefined), []);
    }));
});

describe('a host another process holds', () => {
  it('is asked for again after 20 ms, then twice as long each time, and taken once the other lets go', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(2)) web.page('held.test', p, prose(p));
      await seedLinks(store, 'held.test', pages(2));
      // Another process leases the host's first page for 700 ms: with one request a host, the
      // whole host is its until the lease runs out.
      const first = (await store.linkByUrl(web.url('held.test', '/0.html')))!;
      const held = await store.claimNextLink(first.domainId, 'other', { leaseMs: 700, now: Date.now(), order: 'discovery', perHost: 1, gapMs: 0 });
      assert.ok('links' in held);
      const { counted, claims } = countingClaims(store);
      const report = await harvest(counted, options({ concurrency: 1 }));
      assert.equal(report.stats.pagesFetched, 2, 'both pages, the first once its lease ran out');
      // Refused at about 0, 20, 60, 140, 300 and 620 ms, then taken: every 20 ms would be 35 refusals.
      assert.ok(claims.length >= 5 && claims.length <= 12, `${claims.length} claims`);
    }));

  it('holding the last link, keeps the walk from ending: it waits for the lease to run out, then walks the link', () =>
    withSqliteStore(async (store) => {
      web.page('last.test', '/0.html', prose('last'));
      await seedLinks(store, 'last.test', ['/0.html']);
      const link = (await store.linkByUrl(web.url('last.test', '/0.html')))!;
      // A process of another machine, whose lease a rerun here cannot free early.
      const held = await store.claimNextLink(link.domainId, 'another-machine.example:1:aaaaaa', { leaseMs: 400, now: Date.now(), order: 'discovery', perHost: 1, gapMs: 0 });
      assert.ok('links' in held);
      const report = await harvest(store, options({ concurrency: 1 }));
      assert.equal(report.stop, 'frontier-empty');
      assert.equal(web.count('last.test', '/0.html'), 1);
      assert.equal((await store.linkByUrl(web.url('last.test', '/0.html')))!.status, 'done');
    }));
});

/** The store, with every claim's asked-for count (HostClaim.count) noted, in order, and `after` run once each claim is answered. */
function countingClaims(store: Store, after?: () => Promise<void>): { counted: Store; claims: number[] } {
  const claims: number[] = [];
  const counted = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'claimNextLink') return value.bind(target);
      return async (...args: Parameters<Store['claimNextLink']>) => {
        claims.push(args[2].count ?? 1);
        const got = await store.claimNextLink(...args);
        await after?.();
        return got;
      };
    },
  });
  return { counted, claims };
}

describe('a claim leases a host\'s next links together', () => {
  it('in discovery order: eight links a claim, started one at a time as politeness allows', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(11)) web.page('batch.test', p, { html: prose(p), delayMs: 20 });
      await seedLinks(store, 'batch.test', pages(11));
      const { counted, claims } = countingClaims(store);
      const report = await harvest(counted, options());
      assert.equal(report.stats.pagesFetched, 11);
      assert.deepEqual(pages(11).map((p) => web.count('batch.test', p)), Array(11).fill(1), 'each page once');
      assert.equal(web.maxConcurrent('batch.test'), 1, 'the links held wait for politeness');
      assert.deepEqual(claims.slice(0, 2), [8, 8], 'eight, then the next eight');
      assert.ok(claims.length <= 4, `${claims.length} claims for 11 pages`);
    }));

  it('counts the links held down as they start: on one slot, eight a claim to the end', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(20)) web.page('long.test', p, prose(p));
      await seedLinks(store, 'long.test', pages(20));
      const { counted, claims } = countingClaims(store);
      await harvest(counted, options({ concurrency: 1 }));
      assert.equal(web.count('long.test') - 1, 20);
      assert.deepEqual(claims.slice(0, 3), [8, 8, 8], 'the fourth, if any, finds none left');
    }));

  /** The counts the claims asked for, walking twelve pages of one host with these options. */
  async function claimsOfTwelve(store: Store, host: string, over: Partial<HarvestOptions>): Promise<number[]> {
    for (const p of pages(12)) web.page(host, p, prose(p));
    await seedLinks(store, host, pages(12));
    const { counted, claims } = countingClaims(store);
    await harvest(counted, options(over));
    return claims;
  }

  it('never more than the run may still start', () =>
    withSqliteStore(async (store) => assert.deepEqual(await claimsOfTwelve(store, 'few.test', { maxPages: 3 }), [3])));

  it('never more than the domain may still start', () =>
    withSqliteStore(async (store) => {
      assert.deepEqual(await claimsOfTwelve(store, 'capped.test', { maxPagesPerDomain: 2 }), [2]);
      assert.equal(web.count('capped.test') - 1, 2, 'two pages and robots.txt');
    }));

  it('holds no more than eight links a fetch slot, however many hosts it claims', () =>
    withSqliteStore(async (store) => {
      const hosts = ['w1.test', 'w2.test', 'w3.test', 'w4.test'];
      for (const h of hosts) for (const p of pages(5)) web.page(h, p, prose(p));
      for (const h of hosts) await seedLinks(store, h, pages(5));
      let most = 0;
      const { counted: watched } = countingClaims(store, async () => {
        for (const w of await store.liveWorkers(0)) most = Math.max(most, w.leases);
      });
      const report = await harvest(watched, options({ concurrency: 1 }));
      assert.equal(report.stats.pagesFetched, 20);
      // Four hosts of five would be sixteen held; one slot holds eight, and has one in flight.
      assert.ok(most >= 5 && most <= 9, `${most} leased at once`);
    }));

  it('one at a time when a page\'s new links may go first (--order relevance)', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(4)) web.page('ranked.test', p, prose(p));
      await seedLinks(store, 'ranked.test', pages(4));
      const { counted, claims } = countingClaims(store);
      await harvest(counted, options({ narrative: { order: 'relevance' } }));
      assert.equal(web.count('ranked.test') - 1, 4);
      assert.ok(claims.length >= 4 && claims.every((n) => n === 1), String(claims));
    }));

  it('the links a stopped run held and did not start go back to pending, leased to no one', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(6)) web.page('cut.test', p, { html: prose(p), delayMs: 300 });
      await seedLinks(store, 'cut.test', pages(6));
      await harvest(store, options({ maxTimeMs: 100 }));
      assert.equal(web.count('cut.test') - 1, 1, 'one page started before the time ran out');
      const left = await Promise.all(pages(6).slice(1).map(async (p) => (await store.linkByUrl(web.url('cut.test', p)))!));
      assert.deepEqual(left.map((l) => [l.status, l.leaseOwner ?? null]), Array(5).fill(['pending', null]));
    }));
});

describe('a page leaves its fetch slot once the server has answered', () => {
  /**
   * Pages fetched while not one has yet been read: the action holds every page until the server
   * has seen no new request for 150 ms (at most 5 s), then lets them all through. Four hosts of
   * three pages each, under `prefix`, so that politeness is never what stops a fetch.
   */
  async function fetchedBeforeAnyRead(store: Store, prefix: string, strategy: StrategyName, concurrency: number): Promise<number> {
    const hosts = [1, 2, 3, 4].map((i) => `${prefix}${i}.test`);
    for (const h of hosts) for (const p of pages(3)) web.page(h, p, prose(p));
    for (const h of hosts) await seedLinks(store, h, pages(3));
    const fetched = () => hosts.reduce((n, h) => n + web.hits(h).filter((hit) => hit.path !== '/robots.txt').length, 0);
    let letThrough = () => {};
    const gate = new Promise<void>((open) => (letThrough = open));
    const activity: Activity = {
      name: 'gated',
      constraints: [],
      act: async (page) => {
        await gate;
        return { outcome: { kind: 'walked', status: page.status, links: 0 }, nodes: [], links: [] };
      },
    };
    const watch = (async () => {
      let last = -1;
      let steady = 0;
      for (let i = 0; i < 100 && steady < 3; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const n = fetched();
        steady = n > 0 && n === last ? steady + 1 : 0;
        last = n;
      }
      letThrough();
      return last;
    })();
    const { fetcher, politeness } = options();
    const report = await runActivity(store, activity, { strategy, concurrency, seed: 1, leaseMs: 60_000, fetcher, politeness }, {});
    assert.equal(report.stats.pagesFetched, 12);
    for (const h of hosts) assert.deepEqual(pages(3).map((p) => web.count(h, p)), [1, 1, 1], `each page of ${h} once`);
    return watch;
  }

  it('two slots fetch on while the pages fetched wait to be read, up to as many again', () =>
    withSqliteStore(async (store) => assert.equal(await fetchedBeforeAnyRead(store, 'piped', 'roulette', 2), maxInFlight(2))));

  it('one slot reads and stores each page before the next is drawn, as the thesis\'s crawler', () =>
    withSqliteStore(async (store) => assert.equal(await fetchedBeforeAnyRead(store, 'single', 'roulette', 1), 1)));

  it('newest links first, a page keeps its slot until its own links are stored', () =>
    withSqliteStore(async (store) => assert.equal(await fetchedBeforeAnyRead(store, 'deep', 'dfs', 2), 2)));

  it('a page read and stored gives its place back: over a whole walk, no more requests at once than the slots', () =>
    withSqliteStore(async (store) => {
      // Six hosts of four slow pages each: politeness would allow six at once, the slots two.
      const hosts = [1, 2, 3, 4, 5, 6].map((i) => `slots${i}.test`);
      for (const h of hosts) for (const p of pages(4)) web.page(h, p, { html: prose(`${h}${p}`), delayMs: 60 });
      for (const h of hosts) await seedLinks(store, h, pages(4));
      const report = await harvest(store, options({ concurrency: 2 }));
      assert.equal(report.stats.pagesFetched, 24);
      assert.equal(web.maxConcurrent(hosts), 2);
    }));
});

describe('the wheel', () => {
  it('learns each page\'s reward: its scores equal the stored ones after the run', () =>
    withSqliteStore(async (store) => {
      for (const p of pages(4)) web.page('rich.test', p, `<html><body>${prose(p)}</body></html>`);
      for (const p of pages(4)) web.page('poor.test', p, '<html><body><p>Menu | Home</p></body></html>');
      await seedLinks(store, 'rich.test', pages(4));
      await seedLinks(store, 'poor.test', pages(4));
      const report = await harvest(store, options({ reward: 3 }));
      const rich = (await store.domain('rich.test'))!;
      const poor = (await store.domain('poor.test'))!;
      assert.equal(rich.score, 1 + 3 * 4);
      assert.equal(poor.score, 1);
      assert.equal(report.strategy.score(rich.id), rich.score, 'the wheel in memory drew with the reward');
      assert.equal(report.strategy.score(poor.id), 1);
    }));

  it('a resumed run draws with the scores the store kept', () =>
    withSqliteStore(async (store) => {
      const plain = '<html><body><p>Menu | Home</p></body></html>';
      for (const p of pages(30)) {
        web.page('favoured.test', p, plain);
        web.page('plain.test', p, plain);
      }
      await seedLinks(store, 'favoured.test', ['/earned.html', ...pages(30)]);
      await seedLinks(store, 'plain.test', pages(30));
      // An earlier run earned favoured.test a score of 40.
      const d = (await store.domain('favoured.test'))!;
      const first = (await store.leaseNextLink(d.id, 'earlier', 60_000))!;
      await store.completePage({ linkId: first.id, owner: 'earlier', outcome: { kind: 'harvested' }, nodes: [], newLinks: [], domainReward: 39 });
      await harvest(store, options({ concurrency: 1, maxPages: 20, maxDepth: 0 }));
      const favoured = web.count('favoured.test') - 1;
      const other = web.count('plain.test') - 1;
      assert.equal(favoured + other, 20);
      assert.ok(favoured >= 16, `score 40 against 1 drew favoured.test ${favoured} times of 20`);
    }));
});

describe('depth', () => {
  /** Pages fetched of a chain seed → a (menu) → b (prose) → c (menu) → d (menu), at --max-depth 1. */
  async function chain(store: Store, host: string, depthFrom?: HarvestOptions['depthFrom']): Promise<number[]> {
    const link = (to: string) => `<a href="${web.url(host, to)}">next</a>`;
    const plain = (to: string) => `<html><body><p>Menu | Home</p>${link(to)}</body></html>`;
    web.page(host, '/a.html', plain('/b.html'));
    web.page(host, '/b.html', `<html><body>${prose('b')}${link('/c.html')}</body></html>`);
    web.page(host, '/c.html', plain('/d.html'));
    web.page(host, '/d.html', plain('/e.html'));
    await seedLinks(store, host, ['/a.html']);
    await harvest(store, options({ concurrency: 1, maxDepth: 1, ...(depthFrom ? { depthFrom } : {}) }));
    return ['/a.html', '/b.html', '/c.html', '/d.html'].map((p) => web.count(host, p));
  }

  it('counts afresh from a page that yielded a node, and goes on counting past one that did not', () =>
    withSqliteStore(async (store) => {
      // b is one link from the seed; c is one link from b, which gave text; d is two from b.
      assert.deepEqual(await chain(store, 'depth.test'), [1, 1, 1, 0]);
    }));

  it('with --depth-from seed counts from the seed only', () =>
    withSqliteStore(async (store) => {
      assert.deepEqual(await chain(store, 'seed-depth.test', 'seed'), [1, 1, 0, 0]);
    }));
});

describe('retries', () => {
  it('a server that fails each page twice (503, reset, silence) and then answers is harvested completely', () =>
    withSqliteStore(async (store) => {
      const kinds = ['503', 'reset', 'timeout'] as const;
      for (const kind of kinds) {
        const host = `f${kind}.test`;
        for (const p of pages(2)) web.page(host, p, { html: prose(`${kind}${p}`), failFirst: 2, failWith: kind });
        await seedLinks(store, host, pages(2));
      }
      const report = await harvest(store, options({ fetcher: { resolve: web.resolve, timeoutMs: 300, connectionsPerOrigin: 4 } }));
      assert.equal(report.stop, 'frontier-empty');
      assert.equal(report.stats.pagesWithNodes, 6, 'every page harvested in the end');
      assert.equal(report.stats.retries, 12, 'two retries of each of six pages');
      assert.deepEqual(report.stats.retryCauses, { 'http-503': 4, reset: 4, timeout: 4 });
      for (const kind of kinds) for (const p of pages(2)) assert.equal(web.count(`f${kind}.test`, p), 3, `${kind} ${p}`);
      const sum = await store.summary();
      assert.deepEqual(sum.retries, { retried: 6 });
      assert.equal(sum.links.done, 6);
    }));

  it('past --max-retries a link fails for good with its last error; a 404 fails at once', () =>
    withSqliteStore(async (store) => {
      web.page('worn.test', '/always.html', { html: prose(1), failFirst: 99, failWith: '503' });
      web.page('worn.test', '/gone.html', { html: prose(2), failFirst: 99, failWith: '404' });
      await seedLinks(store, 'worn.test', ['/always.html', '/gone.html']);
      await harvest(store, options({ maxRetries: 2 }));
      assert.equal(web.count('worn.test', '/always.html'), 3, 'one try and two retries');
      assert.equal(web.count('worn.test', '/gone.html'), 1, 'a 404 is not tried again');
      const always = (await store.linkByUrl(web.url('worn.test', '/always.html')))!;
      assert.deepEqual([always.status, always.attempts, always.outcome?.kind, always.outcome?.detail?.status], ['failed', 2, 'http-error', 503]);
      assert.equal((await store.linkByUrl(web.url('worn.test', '/gone.html')))!.status, 'failed');
    }));

  it('Retry-After sets when the link is tried again', () =>
    withSqliteStore(async (store) => {
      web.page('busy.test', '/p.html', { html: prose(1), failFirst: 1, failWith: '429', retryAfter: '1' });
      await seedLinks(store, 'busy.test', ['/p.html']);
      const report = await harvest(store, options());
      assert.equal(report.stats.pagesWithNodes, 1);
      const [a, b] = web.hits('busy.test').filter((h) => h.path === '/p.html');
      assert.ok(b!.start - a!.end >= 950, `tried again ${b!.start - a!.end} ms later, Retry-After said 1 s`);
    }));

  it('robots.txt that cannot be had keeps the link waiting, not excluded', () =>
    withSqliteStore(async (store) => {
      web.page('norobots.test', '/robots.txt', { html: 'User-agent: *\nAllow: /\n', failFirst: 99, failWith: '503' });
      web.page('norobots.test', '/p.html', prose(1));
      await seedLinks(store, 'norobots.test', ['/p.html']);
      const t0 = Date.now();
      await harvest(store, options({ maxTimeMs: 500 }));
      const link = (await store.linkByUrl(web.url('norobots.test', '/p.html')))!;
      assert.deepEqual([link.status, link.outcome?.kind, link.attempts], ['pending', 'robots', 0]);
      assert.ok(link.notBefore! > t0 + 60_000, 'tried again when robots.txt is asked again, minutes later');
      assert.equal(web.count('norobots.test', '/p.html'), 0);
    }));

  it('robots.txt that could not be had spends none of the page\'s tries, and its wait grows from one run to the next', async () => {
    const db = sqliteDb();
    const store = await openStore(db.url);
    try {
      const host = 'robots-apart.test';
      web.page(host, '/robots.txt', { html: 'User-agent: *\nAllow: /\n', failFirst: 2, failWith: '503' });
      web.page(host, '/p.html', { html: prose(1), failFirst: 99, failWith: '503' });
      await seedLinks(store, host, ['/p.html']);
      const origin = new URL(web.url(host)).origin;
      for (const failures of [1, 2]) {
        await harvest(store, options({ maxTimeMs: 300 }));
        const link = (await store.linkByUrl(web.url(host, '/p.html')))!;
        assert.deepEqual([link.status, link.outcome?.kind, link.attempts], ['pending', 'robots', 0], `robots.txt failure ${failures} is no try of the page`);
        const rules = (await store.loadRobots(origin))!.robots as RobotsRules;
        assert.deepEqual([rules.failures, rules.retryAfter! - rules.fetchedAt], [failures, ROBOTS_RETRY_BASE_MS * 2 ** (failures - 1)], 'the wait doubles in the next run');
        await waitsPassed(db.url);
      }
      await harvest(store, options());
      assert.equal(web.count(host, '/robots.txt'), 3);
      assert.equal(web.count(host, '/p.html'), 1 + DEFAULT_MAX_RETRIES, 'the page had every try of its own');
      const link = (await store.linkByUrl(web.url(host, '/p.html')))!;
      assert.deepEqual([link.status, link.attempts, link.outcome?.kind], ['failed', DEFAULT_MAX_RETRIES, 'http-error']);
    } finally {
      await store.close();
      await db.cleanup();
    }
  });

  it('a robots.txt that failed 1 + --max-retries times in a row ends the waiting of its links', () =>
    withSqliteStore(async (store) => {
      web.page('robots-gone.test', '/robots.txt', { html: 'User-agent: *\nAllow: /\n', failFirst: 99, failWith: '503' });
      web.page('robots-gone.test', '/p.html', prose(1));
      await seedLinks(store, 'robots-gone.test', ['/p.html']);
      await harvest(store, options({ maxRetries: 0, maxTimeMs: 2000 }));
      const link = (await store.linkByUrl(web.url('robots-gone.test', '/p.html')))!;
      assert.deepEqual([link.status, link.outcome?.kind, link.attempts], ['excluded', 'robots', 0]);
      assert.equal(web.count('robots-gone.test', '/p.html'), 0);
    }));
});

/** As if the waits had passed: robots.txt the store keeps has expired, and the links waiting are due. */
async function waitsPassed(db: string): Promise<void> {
  await rawSql(db, "UPDATE robots SET expires_at = 0, rules = json_set(rules, '$.expiresAt', 0, '$.retryAfter', 0)");
  await rawSql(db, 'UPDATE links SET not_before = 0 WHERE not_before IS NOT NULL');
}

describe('refusals by the run\'s own settings', () => {
  it('a loopback seed without --resolve is refused as such, and a rerun with the mapping walks it', () =>
    withSqliteStore(async (store) => {
      web.page('127.0.0.1', '/local.html', prose('local'));
      const url = `http://127.0.0.1:${web.port}/local.html`;
      await store.addLinks([{ url, host: '127.0.0.1', depth: 0 }]);
      await harvest(store, options({ hosts: [], fetcher: { resolve: [] } }));
      const refused = (await store.linkByUrl(url))!;
      assert.deepEqual([refused.status, refused.outcome?.kind, refused.outcome?.detail?.reason], ['excluded', 'refused', 'address-refused']);
      assert.equal(web.count('127.0.0.1'), 0, 'nothing went out, robots.txt included');
      const again = await harvest(store, options({ hosts: [], fetcher: { resolve: [], allowPrivate: true } }));
      assert.equal(again.requeued, 1);
      assert.equal((await store.linkByUrl(url))!.status, 'done');
      assert.equal(again.stats.pagesWithNodes, 1);
    }));

  it('a link outside this run\'s --hosts is out of scope, and a run whose scope holds it walks it', () =>
    withSqliteStore(async (store) => {
      web.page('inside.test', '/a.html', prose('a'));
      web.page('outside.test', '/b.html', prose('b'));
      await seedLinks(store, 'inside.test', ['/a.html']);
      await seedLinks(store, 'outside.test', ['/b.html']);
      await harvest(store, options({ hosts: ['inside.test'] }));
      const b = (await store.linkByUrl(web.url('outside.test', '/b.html')))!;
      assert.deepEqual([b.status, b.outcome?.kind, b.outcome?.detail?.reason], ['excluded', 'refused', 'out-of-scope']);
      assert.equal(web.count('outside.test'), 0);
      await harvest(store, options({ hosts: ['*.test'] }));
      assert.equal((await store.linkByUrl(web.url('outside.test', '/b.html')))!.status, 'done');
    }));
});

describe('links already stored', () => {
  it('a link this run has stored is not sent to the store again: a menu on every page costs one row a link', () =>
    withSqliteStore(async (store) => {
      const menu = pages(8).map((p) => `<a href="${p}">${p}</a>`).join(' ');
      for (const p of ['/start.html', ...pages(8)]) web.page('menu.test', p, `<html><body>${prose(`menu${p}`)}<nav>${menu}</nav></body></html>`);
      await seedLinks(store, 'menu.test', ['/start.html']);
      const sent: string[] = [];
      // The real store, with what each stored page sends it written down.
      const counting = new Proxy(store, {
        get: (target, name) => {
          if (name === 'completePage') return (p: Parameters<Store['completePage']>[0]) => (sent.push(...p.newLinks.map((l) => l.url)), target.completePage(p));
          const value: unknown = Reflect.get(target, name);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const report = await harvest(counting, options({ concurrency: 1 }));
      assert.equal(report.stats.pagesDone, 9, 'every page walked');
      assert.equal(report.stats.newLinks, 8);
      assert.deepEqual(sent.sort(), pages(8).map((p) => web.url('menu.test', p)).sort(), 'each menu link sent once, by the first page');
    }));
});

describe('one normal form for links', () => {
  it('links found on a page are normalised as seeds are: /%7euser/ and /~user/ are one link', () =>
    withSqliteStore(async (store) => {
      web.page('norm.test', '/start.html', '<html><body><a href="/%7euser/">a</a> <a href="/~user/">b</a> <a href="HTTP://NORM.TEST:' +
        `${web.port}/%7Euser/#top">c</a></body></html>`);
      web.page('norm.test', '/~user/', prose('user'));
      await seedLinks(store, 'norm.test', ['/start.html']);
      const report = await harvest(store, options());
      assert.equal(report.stats.newLinks, 1);
      assert.equal(web.count('norm.test', '/~user/') + web.count('norm.test', '/%7euser/'), 1);
    }));
});

describe('what a page leaves in the store', () => {
  it('a write that fails stops the run with its error: the pages before it are kept, its link stays leased and none of its text is stored', () =>
    withSqliteStore(async (store, url) => {
      for (const p of pages(3)) web.page('fault.test', p, prose(`fault ${p}`));
      await seedLinks(store, 'fault.test', pages(3));
      // A fault the database itself raises, on the second page's completion alone.
      await rawSql(url, `CREATE TRIGGER fault_on_second BEFORE UPDATE OF status ON links
        WHEN NEW.status = 'done' AND NEW.url LIKE '%/1.html' BEGIN SELECT RAISE(ABORT, 'the disk caught fire'); END`);
      await assert.rejects(harvest(store, options({ concurrency: 1, strategy: 'bfs' })), /the disk caught fire/);
      const status = async (p: string) => (await store.linkByUrl(web.url('fault.test', p)))!.status;
      assert.deepEqual([await status('/0.html'), await status('/1.html')], ['done', 'leased']);
      assert.equal((await store.nodes({ sourceUrl: web.url('fault.test', '/0.html') })).length > 0, true, 'the page before it was kept');
      assert.deepEqual(await store.nodes({ sourceUrl: web.url('fault.test', '/1.html') }), []);
      assert.equal(web.count('fault.test', '/2.html'), 0, 'no page is started after the fault');
    }));

  it('a page whose lease another process took while it was fetched is not stored, and is counted as lost', () =>
    withSqliteStore(async (store, url) => {
      const page = web.url('stolen.test', '/0.html');
      web.page('stolen.test', '/0.html', { html: prose('stolen'), delayMs: 400 });
      await seedLinks(store, 'stolen.test', ['/0.html']);
      // One page: the run ends with it rather than wait for the other process's lease to run out.
      const run = harvest(store, options({ concurrency: 1, maxPages: 1 }));
      for (let i = 0; i < 300 && (await rawSql(url, 'SELECT status FROM links WHERE url = ?', [page]))[0]?.status !== 'leased'; i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await rawSql(url, "UPDATE links SET lease_owner = 'another-process' WHERE url = ?", [page]);
      const report = await run;
      assert.equal(report.stats.leaseLost, 1);
      assert.deepEqual(await store.nodes({ sourceUrl: page }), [], 'the other process stores it');
      const link = (await store.linkByUrl(page))!;
      assert.deepEqual([link.status, link.leaseOwner], ['leased', 'another-process']);
    }));

  it('a run stopped by --max-time lets the page in flight finish, stores it, and says why it stopped', () =>
    withSqliteStore(async (store) => {
      // The first page's answer, past the time, wakes the walk to stop; the second is still in flight.
      web.page('late-a.test', '/0.html', { html: prose('early'), delayMs: 300 });
      web.page('late-b.test', '/0.html', { html: prose('late'), delayMs: 1200 });
      web.page('late-b.test', '/1.html', prose('never'));
      await seedLinks(store, 'late-a.test', ['/0.html']);
      await seedLinks(store, 'late-b.test', ['/0.html', '/1.html']);
      const report = await harvest(store, options({ concurrency: 2, maxTimeMs: 150 }));
      assert.equal(report.stop, 'max-time');
      assert.equal((await store.linkByUrl(web.url('late-b.test', '/0.html')))!.status, 'done', 'stored before the run returned');
      assert.equal(web.count('late-b.test', '/1.html'), 0, 'nothing started past the time');
    }));

  it('a step that throws is that page\'s outcome (failed: internal, with the message), and the run goes on', () =>
    withSqliteStore(async (store, url) => {
      web.page('shelf.test', '/0.html', prose('shelf'));
      web.page('fine.test', '/0.html', prose('fine'));
      await seedLinks(store, 'shelf.test', ['/0.html']);
      await seedLinks(store, 'fine.test', ['/0.html']);
      // The store refuses one host's robots.txt rules: the step that keeps them throws.
      await rawSql(url, `CREATE TRIGGER robots_refused BEFORE INSERT ON robots WHEN NEW.origin LIKE '%shelf.test%'
        BEGIN SELECT RAISE(ABORT, 'no room on the robots shelf'); END`);
      const report = await harvest(store, options({ concurrency: 1 }));
      assert.equal(report.stop, 'frontier-empty');
      const shelf = (await store.linkByUrl(web.url('shelf.test', '/0.html')))!;
      assert.deepEqual([shelf.status, shelf.outcome?.kind, shelf.outcome?.detail?.failure], ['failed', 'failed', 'internal']);
      assert.match(String(shelf.outcome?.detail?.detail), /no room on the robots shelf/);
      assert.equal((await store.linkByUrl(web.url('fine.test', '/0.html')))!.status, 'done');
    }));

  it('a page whose links the cap cut says on its record how many went unread', () =>
    withSqliteStore(async (store) => {
      const menu = pages(5).map((p) => `<a href="${web.url('cut-links.test', p)}">${p}</a>`).join(' ');
      web.page('cut-links.test', '/index.html', `<html><body>${prose('capped')}<p>${menu}</p></body></html>`);
      for (const p of pages(5)) web.page('cut-links.test', p, prose(p));
      await seedLinks(store, 'cut-links.test', ['/index.html']);
      await harvest(store, options({ concurrency: 1, maxLinksPerPage: 2 }));
      const index = (await store.linkByUrl(web.url('cut-links.test', '/index.html')))!;
      assert.equal(index.outcome?.detail?.linksCut, 3);
      assert.equal(web.count('cut-links.test', '/0.html') + web.count('cut-links.test', '/1.html'), 2, 'the first two links were walked');
      assert.equal((await store.linkByUrl(web.url('cut-links.test', '/0.html')))!.outcome?.detail?.linksCut, undefined, 'a page the cap did not cut says nothing of it');
    }));
});
