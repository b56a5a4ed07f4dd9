import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { RETRY_AFTER_MAX_MS } from '../../src/web/retry-after.js';
import { anwc } from '../support/cli.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';

/**
 * Retries and refusals as a user meets them: a flaky server harvested to the end with the retries
 * in `anwc stats`; links failed for good put back with --retry-failed (by kind); a seed on a
 * loopback address refused without the flag and walked by a rerun with it.
 */


let web: FlakyWeb;
let dir: string;
before(async () => {
  web = await startFlakyWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-retry-'));
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const fast = ['--delay', '0', '--backoff', '0.02', '--timeout', '0.4', '--progress', 'none', '--resolve', '*.test:127.0.0.1', '--hosts', '*.test'];

async function database(name: string, urls: string[]): Promise<string> {
  const db = `sqlite:${join(dir, `${name}.sqlite`)}`;
  await seed(db, urls);
  return db;
}

async function seed(db: string, urls: string[]): Promise<void> {
  const store = await openStore(db);
  await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
  await store.close();
}

const BACKENDS: [string, () => TestDb][] = [['SQLite', sqliteDb], ['MariaDB', mysqlDb]];
const noMysql = process.env.ANWC_TEST_MYSQL === 'off';

describe('retries at the command line', () => {
  it('a server that fails every page twice (503, reset, silence) is harvested completely; anwc stats shows the retries', async () => {
    const urls: string[] = [];
    for (const kind of ['503', 'reset', 'timeout'] as const) {
      web.page(`cli-${kind}.test`, '/p.html', { html: prose(kind), failFirst: 2, failWith: kind });
      urls.push(web.url(`cli-${kind}.test`, '/p.html'));
    }
    const db = await database('flaky', urls);
    const run = await anwc(['harvest', '--db', db, ...fast]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /links put back to try again later \(6\), by cause:/);
    const stats = await anwc(['stats', '--db', db]);
    assert.match(stats.stdout, /retries: 3 link\(s\) needed more than one try\n/);
    assert.doesNotMatch(stats.stdout, /waiting:/, 'nothing waits any more');
    assert.match(stats.stdout, /done\s+3/);
    const json = JSON.parse((await anwc(['stats', '--db', db, '--json'])).stdout);
    assert.deepEqual(json.retries, { retried: 3 });
    assert.equal(json.waiting, null);
  });

  it('--retry-failed --kind puts back only the failures of that kind, and the rerun walks them', async () => {
    web.page('cli-gone.test', '/a.html', { html: prose('a'), failFirst: 1, failWith: '404' });
    web.page('cli-down.test', '/b.html', { html: prose('b'), failFirst: 1, failWith: '503' });
    const db = await database('failed', [web.url('cli-gone.test', '/a.html'), web.url('cli-down.test', '/b.html')]);
    const first = await anwc(['harvest', '--db', db, '--max-retries', '0', ...fast]);
    assert.equal(first.code, 1, 'a run whose every page failed read nothing');
    assert.match(first.stderr, /no page was read/);
    const stats = await anwc(['stats', '--db', db]);
    assert.match(stats.stdout, /http-404\s+1/);
    assert.match(stats.stdout, /http-503\s+1/);
    const nothing = await anwc(['harvest', '--db', db, ...fast]);
    assert.equal(nothing.code, 0, 'a frontier walked to its end is done');
    assert.match(nothing.stderr, /anwc harvest --retry-failed for the 2 that failed/);
    const again = await anwc(['harvest', '--db', db, '--retry-failed', '--kind', '5xx', ...fast]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /1 failed link\(s\) of 5xx put back in the frontier/);
    assert.equal(web.count('cli-down.test', '/b.html'), 2, 'the 503 was asked again');
    assert.equal(web.count('cli-gone.test', '/a.html'), 1, 'the 404 was not');
    const after = JSON.parse((await anwc(['stats', '--db', db, '--json'])).stdout);
    assert.deepEqual([after.links.done, after.links.failed], [1, 1]);
    const misuse = await anwc(['harvest', '--db', db, '--kind', '5xx', ...fast]);
    assert.equal(misuse.code, 2);
    assert.match(misuse.stderr, /--kind only applies with --retry-failed/);
    const config = join(dir, 'retry.config.json');
    writeFileSync(config, '{ "kind": "5xx" }\n');
    const byFile = await anwc(['harvest', '--db', db, '--config', config, ...fast]);
    assert.doesNotMatch(byFile.stderr, /--kind/, 'a kind in the configuration file waits for a run with --retry-failed');
    assert.match(byFile.stderr, /known links were walked/);
  });

  it('anwc why tells a link waiting for a retry from a new one: which try comes, when, and what happened last', async () => {
    web.page('cli-norobots.test', '/robots.txt', { html: 'User-agent: *\nAllow: /\n', failFirst: 99, failWith: '503' });
    web.page('cli-norobots.test', '/p.html', prose('p'));
    const url = web.url('cli-norobots.test', '/p.html');
    const db = await database('waiting', [url]);
    const run = await anwc(['harvest', '--db', db, '--max-time', '1', ...fast]);
    assert.equal(run.code, 1, 'nothing was read while robots.txt could not be');
    const why = await anwc(['why', url, '--db', db]);
    assert.match(why.stdout, /waiting for its robots\.txt to be asked again \(not before \d{4}-.*, 0 of its own tries spent\); last time not walked: robots\.txt unreachable/);
    assert.equal(web.count('cli-norobots.test', '/p.html'), 0);
  });

  it('a site that answers 429 with Retry-After: 1 to everything, robots.txt too: map and harvest give up after the retries and exit 1, in seconds', async () => {
    const host = 'throttled-all.test';
    web.page(host, '/robots.txt', { html: 'User-agent: *\nAllow: /\n', failFirst: 99, failWith: '429', retryAfter: '1' });
    web.page(host, '/', { html: prose('root'), failFirst: 99, failWith: '429', retryAfter: '1' });
    const root = web.url(host, '/');
    // Without --backoff: robots.txt's own wait (minutes) would hold the run unless the server's 1 s is heard.
    const flags = fast.filter((_, i) => fast[i] !== '--backoff' && fast[i - 1] !== '--backoff');
    const map = await anwc(['map', root, '--out', join(dir, 'throttled.json'), ...flags]);
    assert.equal(map.code, 1, map.stderr);
    assert.match(map.stderr, /root http:\/\/throttled-all\.test:\d+\/ not walked: robots\.txt unreachable \(HTTP 429\).*4 failure\(s\) in a row/);
    const robotsTries = web.hits(host).filter((h) => h.path === '/robots.txt');
    assert.equal(robotsTries.length, 4, '1 + --max-retries tries of robots.txt');
    for (let i = 1; i < robotsTries.length; i++) assert.ok(robotsTries[i]!.start - robotsTries[i - 1]!.end >= 950, 'each after the server\'s 1 s');
    assert.equal(web.count(host, '/'), 0, 'no page asked while robots.txt could not be had');

    const db = await database('throttled', [root]);
    const harvest = await anwc(['harvest', '--db', db, ...flags]);
    assert.equal(harvest.code, 1, harvest.stderr);
    assert.match(harvest.stderr, /no page was read/);

    // A link checker must not call the site broken: it is up, and asked for time.
    const report = join(dir, 'throttled-maintain.json');
    const maintain = await anwc(['maintain', '--site', root, '--out', report, ...flags]);
    assert.equal(maintain.code, 1, maintain.stderr);
    assert.match(maintain.stderr, /: 0 broken, 0 moved, 0 refused, 1 not tested,/);
    const check = JSON.parse(readFileSync(report, 'utf8')).checks[root];
    assert.deepEqual([check.state, check.detail], ['unchecked', 'robots.txt answered HTTP 429 (too many requests): the server asked for time; rerun later, or with a larger --delay']);
  });

  it('map: one page failing through its retries leaves its host walked; errors on five pages give the host up, exit 1, the rest named not walked', async () => {
    const one = 'one-broken.test';
    web.page(one, '/', { html: `${prose('root')}<a href="/bad.html">bad</a>` });
    web.page(one, '/bad.html', { html: prose('bad'), failFirst: 99, failWith: '503' });
    const kept = await anwc(['map', web.url(one, '/'), '--max-retries', '5', '--out', join(dir, 'one.json'), ...fast]);
    assert.equal(kept.code, 0, kept.stderr);
    assert.equal(web.count(one, '/bad.html'), 6, 'every try of the page, none cut short by giving its host up');
    assert.doesNotMatch(kept.stderr, /given up/);

    const many = 'many-broken.test';
    const pages = [1, 2, 3, 4, 5, 6].map((i) => `/b${i}.html`);
    web.page(many, '/', { html: `${prose('root')}${pages.map((p) => `<a href="${p}">${p}</a>`).join('')}` });
    for (const p of pages) web.page(many, p, { html: prose(p), failFirst: 99, failWith: '503' });
    const given = await anwc(['map', web.url(many, '/'), '--max-retries', '0', '--out', join(dir, 'many.json'), ...fast]);
    assert.equal(given.code, 1, given.stderr);
    assert.match(given.stderr, /^anwc: links of many-broken\.test not walked: the host was given up after errors in a row; rerun \(give --state DB to keep them for it\) when it answers$/m);
    assert.equal(pages.reduce((n, p) => n + web.count(many, p), 0), 5);
  });

  it('anwc why tells a lease that ran out (a run that stopped) from a page being walked now', async () => {
    const urls = ['/live.html', '/dead.html'].map((p) => web.url('why-leases.test', p));
    const db = await database('why-leases', urls);
    const store = await openStore(db);
    const { domainId } = (await store.linkByUrl(urls[0]!))!;
    assert.equal((await store.leaseNextLink(domainId, 'live-process', 600_000))?.url, urls[0]);
    assert.equal((await store.leaseNextLink(domainId, 'gone-process', 1_000, Date.now() - 60_000))?.url, urls[1]);
    await store.close();
    const dead = await anwc(['why', urls[1]!, '--db', db]);
    assert.match(dead.stdout, /leased by gone-process, whose lease ran out at .* \(a run that stopped before it was done\): the next run walks it/);
    const live = await anwc(['why', urls[0]!, '--db', db]);
    assert.match(live.stdout, /being walked by live-process \(lease until /);
  });

  it('a harvest that waits for retries says so, in its progress line and in anwc stats: how many links, until when', async () => {
    const hosts = ['wait-a.test', 'wait-b.test'];
    for (const h of hosts) web.page(h, '/p.html', { html: prose(h), failFirst: 99, failWith: '429', retryAfter: '300' });
    const urls = hosts.map((h) => web.url(h, '/p.html'));
    const db = await database('waiting-retries', urls);
    const first = await anwc(['harvest', '--db', db, '--max-time', '1', ...fast]);
    assert.equal(first.code, 1, 'every link was put back: nothing was read');
    assert.match(first.stderr, /no page was read.*"not now" a rerun later/);
    const store = await openStore(db);
    const due = Math.min(...(await Promise.all(urls.map(async (u) => (await store.linkByUrl(u))!.notBefore!))));
    await store.close();
    const stats = await anwc(['stats', '--db', db]);
    assert.match(stats.stdout, /^waiting: 2 links for a retry, next due [\d: -]+ UTC \(in [45] min( \d+ s)?\), the first after HTTP 429 at wait-[ab]\.test:\d+$/m);
    // The case as met: a rerun with nothing due, whose only output was its progress line.
    const resumed = await anwc(['harvest', '--db', db, '--max-time', '6', ...fast.map((a) => (a === 'none' ? 'json' : a))]);
    assert.equal(resumed.code, 1, 'nothing was due, so nothing was read');
    const lines = resumed.stderr.split('\n').filter((l) => l.startsWith('{"progress"'));
    assert.ok(lines.length > 0, resumed.stderr);
    const { progress } = JSON.parse(lines.at(-1)!);
    assert.equal(progress.pages, 0);
    assert.deepEqual([progress.waiting.links, progress.waiting.nextAt], [2, new Date(due).toISOString()]);
    assert.match(progress.waiting.cause, /^the first after HTTP 429 at wait-[ab]\.test:\d+$/, 'and what it waits for');
    assert.ok(progress.waiting.inS > 0 && progress.waiting.inS <= 300, String(progress.waiting.inS));
    // A link whose time has come waits no more: stats counts it as pending, not as waiting.
    const file = new Database(db.slice('sqlite:'.length));
    file.prepare('UPDATE links SET not_before = ? WHERE url = ?').run(Date.now() - 60_000, urls[0]);
    file.close();
    const later = await anwc(['stats', '--db', db]);
    assert.match(later.stdout, /^waiting: 1 link for a retry, next due [\d: -]+ UTC \(in [45] min( \d+ s)?\), the first after HTTP 429 at wait-b\.test:\d+$/m);
    assert.match(later.stdout, /^ {2}pending +2 \(100\.0%\)$/m);
    const json = JSON.parse((await anwc(['stats', '--db', db, '--json'])).stdout);
    assert.deepEqual([json.waiting.links, json.waiting.cause], [1, `the first after HTTP 429 at ${new URL(urls[1]!).host}`]);
  });

  for (const [name, fresh] of BACKENDS) {
    it(`${name}: a Retry-After of 10^20 seconds, or of the year 9999, parks its link for the bound at most; the run ends and stats reads it`, { skip: name === 'MariaDB' && noMysql }, async () => {
      // Two hosts: the first answer keeps its host away for the bound too.
      const [seconds, date] = ['seconds', 'date'].map((k) => `absurd-${k}-${name.toLowerCase()}.test`) as [string, string];
      web.page(seconds, '/p.html', { html: prose('s'), failFirst: 99, failWith: '429', retryAfter: '99999999999999999999' });
      web.page(date, '/p.html', { html: prose('d'), failFirst: 99, failWith: '503', retryAfter: 'Fri, 31 Dec 9999 23:59:59 GMT' });
      const urls = [web.url(seconds, '/p.html'), web.url(date, '/p.html')];
      const db = fresh();
      try {
        await seed(db.url, urls);
        const started = Date.now();
        const run = await anwc(['harvest', '--db', db.url, '--max-time', '1', ...fast]);
        const ended = Date.now();
        assert.equal(run.code, 1, 'both links were put back: nothing was read');
        const store = await openStore(db.url);
        const links = await Promise.all(urls.map((u) => store.linkByUrl(u)));
        await store.close();
        for (const l of links) {
          assert.deepEqual([l!.status, l!.attempts], ['pending', 1], l!.url);
          assert.ok(l!.notBefore! >= started + RETRY_AFTER_MAX_MS && l!.notBefore! <= ended + RETRY_AFTER_MAX_MS, `${l!.url} waits the bound: ${new Date(l!.notBefore!).toISOString()}`);
        }
        const stats = await anwc(['stats', '--db', db.url]);
        assert.equal(stats.code, 0, stats.stderr);
        assert.match(stats.stdout, /waiting: 2 links for a retry, next due [\d: -]+ UTC \(in (9 min|10 min)/);
      } finally {
        await db.cleanup();
      }
    });

    it(`${name}: a Last-Modified or ETag too long for its column, or a date past 9999, is not kept; a good one is`, { skip: name === 'MariaDB' && noMysql }, async () => {
      const host = `validators-${name.toLowerCase()}.test`;
      const good = { 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT', etag: '"v1"' };
      web.page(host, '/good.html', { html: prose('g'), headers: good });
      web.page(host, '/long.html', { html: prose('l'), headers: { 'last-modified': `Wed, 21 Oct 2015 07:28:00 GMT${' '.repeat(80)}x`, etag: `"${'e'.repeat(300)}"` } });
      web.page(host, '/far.html', { html: prose('f'), headers: { 'last-modified': 'Sat, 01 Jan 275759 00:00:00 GMT' } });
      const urls = ['/good.html', '/long.html', '/far.html'].map((p) => web.url(host, p));
      const db = fresh();
      try {
        await seed(db.url, urls);
        const run = await anwc(['harvest', '--db', db.url, ...fast]);
        assert.equal(run.code, 0, run.stderr);
        const store = await openStore(db.url);
        const links = await Promise.all(urls.map((u) => store.linkByUrl(u)));
        await store.close();
        assert.deepEqual(links.map((l) => [l!.status, l!.lastModified, l!.etag]), [
          ['done', good['last-modified'], good.etag], ['done', null, null], ['done', null, null],
        ]);
      } finally {
        await db.cleanup();
      }
    });
  }

  it('a loopback seed is refused without the flag, labelled as such, and walked by a rerun with --allow-private', async () => {
    web.page('127.0.0.1', '/seed.html', prose('seed'));
    const url = `http://127.0.0.1:${web.port}/seed.html`;
    const db = await database('refused', [url]);
    const plain = ['--delay', '0', '--progress', 'none'];
    const first = await anwc(['harvest', '--db', db, ...plain]);
    assert.equal(first.code, 1, 'its one link was refused: nothing was read');
    assert.match(first.stderr, /no page was read.*--allow-private/);
    assert.match(first.stdout, /address-refused\s+1/);
    const why = await anwc(['why', url, '--db', db]);
    assert.match(why.stdout, /refused by this run's settings.*--allow-private/);
    assert.doesNotMatch(why.stdout, /robots/);
    assert.equal(web.count('127.0.0.1'), 0);
    const second = await anwc(['harvest', '--db', db, '--allow-private', ...plain]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /1 link\(s\) refused by an earlier run's settings are looked at again/);
    assert.match(second.stdout, /narrative nodes\s+1/);
  });
});
