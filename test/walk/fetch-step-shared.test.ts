import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Link, Store } from '../../src/store/store.js';
import { openStore } from '../../src/store/open.js';
import { FetchStep, type FetchResult } from '../../src/walk/fetch-step.js';
import { Fetcher } from '../../src/web/fetcher.js';
import { Politeness } from '../../src/web/politeness.js';
import { sqliteDb, type TestDb } from '../support/db.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';
import { noDns } from '../support/testweb.js';

/**
 * The fetch step's results shared by the walks of one run (maintenance's tasks reach the same
 * URLs): what is answered from them, without a request, and what must still go out. Each case
 * counts the requests at the suite's loopback server; the steps keep their robots.txt in a real
 * SQLite store. Also the DNS facts the step gives DNS-class constraints.
 */

let web: FlakyWeb;
before(async () => {
  web = await startFlakyWeb();
});
after(() => web.close());

const HOST = 'shared.test';
const MAX_RETRIES = 2;

let dbs: TestDb[];
let stores: Store[];
let steps: FetchStep[];
beforeEach(() => {
  dbs = [];
  stores = [];
  steps = [];
});
afterEach(async () => {
  for (const s of steps) await s.close();
  for (const s of stores) await s.close();
  for (const d of dbs) await d.cleanup();
});

/** A step of its own store and fetcher, as each walk of a run has, sharing `shared` (when given) with the others. */
async function step(
  shared: Map<string, FetchResult> | undefined, fetcher = new Fetcher({ resolve: web.resolve, lookup: noDns, timeoutMs: 5_000 }),
): Promise<FetchStep> {
  const db = sqliteDb();
  dbs.push(db);
  const store = await openStore(db.url);
  stores.push(store);
  const s = new FetchStep(store, fetcher, { token: 'anwc', politeness: new Politeness({ delayMs: 0 }), ...(shared ? { shared } : {}), maxRetries: MAX_RETRIES });
  steps.push(s);
  return s;
}

function link(path: string, attempts = 0, host = HOST): Link {
  return {
    id: 1, url: web.url(host, path), domainId: 1, host, depth: 0, status: 'leased', queryId: null, referrerId: null,
    referrerUrl: null, etag: null, lastModified: null, leaseOwner: null, leaseExpiresAt: null, outcome: null,
    discoveredAt: 0, attempts, notBefore: null, priority: 0,
  };
}

const signal = () => new AbortController().signal;
const pageOf = (r: FetchResult) => {
  assert.ok('page' in r, `a page, not ${JSON.stringify('outcome' in r ? r.outcome : r)}`);
  return r.page;
};
const outcomeOf = (r: FetchResult) => {
  assert.ok('outcome' in r, 'an outcome, not a page');
  return r.outcome;
};

describe('fetch results shared by the walks of one run', () => {
  it('a URL is asked once: a second walk gets the page without a request, and knows it made none', async () => {
    web.page(HOST, '/once', prose('once'));
    const shared = new Map<string, FetchResult>();
    const first = await (await step(shared)).fetch(link('/once'), signal());
    const second = await (await step(shared)).fetch(link('/once'), signal());
    assert.equal(web.count(HOST, '/once'), 1);
    assert.ok(first.http, 'the first made the request');
    assert.equal(second.http, undefined, 'the second made none');
    assert.deepEqual(Buffer.from(pageOf(second).body).toString(), prose('once'));
  });

  it('a GET answers a later HEAD of the URL, a HEAD never answers a GET, and a HEAD answers a HEAD', async () => {
    web.page(HOST, '/get-first', prose('g'));
    web.page(HOST, '/head-first', prose('h'));
    const shared = new Map<string, FetchResult>();
    const s = await step(shared);
    await s.fetch(link('/get-first'), signal(), 'GET');
    const head = await s.fetch(link('/get-first'), signal(), 'HEAD');
    assert.equal(web.count(HOST, '/get-first'), 1, 'the HEAD was answered by the GET');
    assert.equal(head.http, undefined);

    await s.fetch(link('/head-first'), signal(), 'HEAD');
    await s.fetch(link('/head-first'), signal(), 'HEAD');
    assert.equal(web.count(HOST, '/head-first'), 1, 'the second HEAD was answered by the first');
    const get = await s.fetch(link('/head-first'), signal(), 'GET');
    assert.equal(web.count(HOST, '/head-first'), 2, 'a GET after a HEAD goes out: the HEAD has no body');
    assert.equal(Buffer.from(pageOf(get).body).toString(), prose('h'));
  });

  it('a 503 is shared only on the link\'s last try, so a retry still goes out; a 404 is shared at once', async () => {
    web.page(HOST, '/busy', { html: prose('busy'), failFirst: 100, failWith: '503' });
    const shared = new Map<string, FetchResult>();
    const s = await step(shared);
    for (let attempts = 0; attempts < MAX_RETRIES; attempts++) {
      assert.deepEqual(outcomeOf(await s.fetch(link('/busy', attempts), signal())), { kind: 'http-error', status: 503 });
    }
    assert.equal(web.count(HOST, '/busy'), MAX_RETRIES, 'every try before the last went out');
    await s.fetch(link('/busy', MAX_RETRIES), signal());
    const later = await s.fetch(link('/busy', 0), signal());
    assert.equal(web.count(HOST, '/busy'), MAX_RETRIES + 1, 'the last try\'s answer is the run\'s');
    assert.deepEqual(outcomeOf(later), { kind: 'http-error', status: 503 });

    await s.fetch(link('/missing'), signal());
    assert.deepEqual(outcomeOf(await s.fetch(link('/missing'), signal())), { kind: 'http-error', status: 404 });
    assert.equal(web.count(HOST, '/missing'), 1);
  });

  it('a connection that failed is never shared, even on the last try: the next walk asks again', async () => {
    web.page(HOST, '/reset', { html: prose('reset'), failFirst: 100, failWith: 'reset' });
    const shared = new Map<string, FetchResult>();
    const s = await step(shared);
    for (let i = 0; i < 2; i++) assert.equal(outcomeOf(await s.fetch(link('/reset', MAX_RETRIES), signal())).kind, 'failed');
    assert.equal(web.count(HOST, '/reset'), 2);
  });

  it('a redirect on the host: the page it ended on answers a later link to that page', async () => {
    web.page(HOST, '/old', { html: '', redirect: '/new' });
    web.page(HOST, '/new', prose('new'));
    const shared = new Map<string, FetchResult>();
    const s = await step(shared);
    const moved = pageOf(await s.fetch(link('/old'), signal()));
    assert.equal(moved.finalUrl, web.url(HOST, '/new'));
    const direct = await s.fetch(link('/new'), signal());
    assert.equal(web.count(HOST, '/new'), 1, 'the page was asked once, through the redirect');
    assert.equal(direct.http, undefined);
    assert.equal(pageOf(direct).url, web.url(HOST, '/new'), 'answered as the page it is, not as the link that led to it');
  });

  it('a redirect to another host is a link to walk, shared, and the other host is never asked here', async () => {
    const away = web.url('elsewhere.test', '/there');
    web.page(HOST, '/away', { html: '', redirect: away });
    const shared = new Map<string, FetchResult>();
    const s = await step(shared);
    for (let i = 0; i < 2; i++) {
      const r = await s.fetch(link('/away'), signal());
      assert.deepEqual(outcomeOf(r), { kind: 'redirected', status: 301, to: away });
      assert.deepEqual('links' in r ? r.links : undefined, [away]);
    }
    assert.equal(web.count(HOST, '/away'), 1);
    assert.equal(web.count('elsewhere.test'), 0);
  });

  it('robots.txt that closes a path is shared with a walk of another store; one that failed (5xx) is not', async () => {
    web.page('closed.test', '/robots.txt', 'User-agent: *\nDisallow: /private\n');
    web.page('broken.test', '/robots.txt', { html: '', failFirst: 100, failWith: '503' });
    web.page('reset.test', '/robots.txt', { html: '', failFirst: 100, failWith: 'reset' });
    const shared = new Map<string, FetchResult>();
    for (let i = 0; i < 2; i++) {
      const s = await step(shared);
      const closed = outcomeOf(await s.fetch(link('/private', 0, 'closed.test'), signal()));
      assert.deepEqual(closed, { kind: 'robots', reason: (closed as { reason: string }).reason }, 'a verdict of the rules, with no retry');
      const broken = outcomeOf(await s.fetch(link('/page', 0, 'broken.test'), signal())) as Record<string, unknown>;
      assert.deepEqual(Object.keys(broken).sort(), ['cause', 'failures', 'kind', 'reason', 'retryAt', 'status']);
      assert.deepEqual([broken.kind, broken.status, broken.failures, typeof broken.retryAt], ['robots', 503, 1, 'number'],
        'a robots.txt that failed is tried again later, and the outcome says how it failed');
      const unreachable = outcomeOf(await s.fetch(link('/page', 0, 'reset.test'), signal())) as Record<string, unknown>;
      assert.deepEqual(Object.keys(unreachable).sort(), ['cause', 'failures', 'kind', 'reason', 'retryAt'], 'no status where no answer came');
    }
    assert.equal(web.count('closed.test', '/robots.txt'), 1, 'the second walk was answered by the first one\'s verdict');
    assert.ok(web.count('broken.test', '/robots.txt') >= 2, 'each walk asked the failing robots.txt itself');
    assert.equal(web.count('closed.test', '/private') + web.count('broken.test', '/page'), 0);
  });

  it('a host of a refused address, or of no address, is never asked, and says why', async () => {
    const s = await step(new Map(), new Fetcher({
      resolve: web.resolve, lookup: async (host) => (host === 'intranet.example' ? [{ address: '10.0.0.5', family: 4 }] : noDns(host)),
    }));
    const refused = outcomeOf(await s.fetch(link('/', 0, 'intranet.example'), signal()));
    assert.deepEqual(refused, { kind: 'refused', reason: 'address-refused', detail: 'intranet.example → 10.0.0.5 is private' });
    assert.deepEqual(outcomeOf(await s.fetch(link('/', 0, 'nowhere.example'), signal())),
      { kind: 'failed', failure: 'dns', detail: 'nowhere.example: ENOTFOUND' });
  });

  it('a walk stopped before the request makes none', async () => {
    web.page(HOST, '/stopped', prose('stopped'));
    const s = await step(new Map());
    const stop = new AbortController();
    stop.abort();
    assert.deepEqual(outcomeOf(await s.fetch(link('/stopped'), stop.signal)), { kind: 'failed', failure: 'interrupted' });
    assert.equal(web.count(HOST, '/stopped'), 0);
  });

  it('without shared results every fetch goes out', async () => {
    web.page(HOST, '/alone', prose('alone'));
    const s = await step(undefined);
    for (let i = 0; i < 2; i++) assert.ok((await s.fetch(link('/alone'), signal())).http);
    assert.equal(web.count(HOST, '/alone'), 2);
  });
});

describe('the DNS facts of a host', () => {
  const answers = (address: string) => async () => [{ address, family: 4 }];

  it('a mapped name gives its address and its name in lower case, without a lookup', async () => {
    const s = await step(new Map(), new Fetcher({ resolve: web.resolve, lookup: noDns }));
    assert.deepEqual(await s.dns('Mapped.TEST'), { facts: { canonicalName: 'mapped.test', addresses: ['127.0.0.1'] } });
  });

  it('a name that resolves to a public address gives it', async () => {
    const s = await step(new Map(), new Fetcher({ lookup: answers('93.184.216.1') }));
    assert.deepEqual(await s.dns('public.example'), { facts: { canonicalName: 'public.example', addresses: ['93.184.216.1'] } });
  });

  it('a name of a private address is refused by the address policy, and a name with no address failed', async () => {
    const refused = await (await step(new Map(), new Fetcher({ lookup: answers('10.0.0.5') }))).dns('intranet.example');
    assert.ok('outcome' in refused);
    assert.equal(refused.outcome.kind, 'refused');
    assert.equal((refused.outcome as { reason?: string }).reason, 'address-refused');
    const missing = await (await step(new Map(), new Fetcher({ lookup: noDns }))).dns('nowhere.example');
    assert.ok('outcome' in missing);
    assert.deepEqual(missing.outcome, { kind: 'failed', failure: 'dns', detail: 'nowhere.example: ENOTFOUND' });
  });
});
