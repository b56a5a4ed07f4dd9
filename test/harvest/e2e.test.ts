import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/feed/import.js';
import { exportSentences } from '../../src/feed/formats.js';
import { parseDom } from '../../src/html/dom.js';
import { MIN_CONTEXT_TERMS } from '../../src/text/profile.js';
import { contentStems } from '../../src/text/relevance.js';
import { harvest, type HarvestOptions, type HarvestReport } from '../../src/harvest/harvest.js';
import { seed } from '../../src/search/seed.js';
import { createProvider } from '../../src/search/index.js';
import { openStore } from '../../src/store/open.js';
import type { Link, Store } from '../../src/store/store.js';
import type { StrategyName } from '../../src/walk/strategies/strategy.js';
import { mysqlDb, sqliteDb, type TestDb } from '../support/db.js';
import { corpusUrls, HUB_HOST, hubPage, outsideLink, plainParagraph, storedLinks, type CorpusUrl } from '../support/hub.js';
import { SITES, startTestWeb, type TestWeb } from '../support/testweb.js';
import { needsShared } from '../support/shared.js';
import { notNearAny } from '../support/near.js';

/** The crawl is of the corpus web: a bare clone skips it with one line. */
const SHARED = needsShared('corpus');

/**
 * The ANWC activity end to end, as a user runs it: import an author's markup, seed from a seed
 * file (the `file` search provider, no network), then harvest the five corpus sites served as a
 * local web behind a hub page. The same suite runs on SQLite and on MariaDB. Every crawl is
 * scoped to *.test, reached through --resolve, and bounded by depth from the seed (--depth-from
 * seed) so it ends by itself with the frontier empty: hub (0) → each site's entry page (1) → the
 * pages it links (2).
 */

const STORY = String.raw`{\section \id="study"
  {\node \meta="detective, mystery, traveller"
    {\sen The detective read the letter twice before he put it in the fire.}
    {\sen The traveller said nothing of where he had been.}
  }
  {\node \meta="machine, time"
    {\sen The machine stood in the corner of the laboratory, humming.}
  }
}
`;

/** The meta set the seed file gives the hub: words of the markup, so their ids are shared. */
const SEED_META = ['detective', 'mystery', 'traveller'];
const REWARD = 2;
const MAX_DEPTH = 2;

/**
 * A host outside the crawl's *.test scope, linked from the hub and mapped to the test web's canary
 * on 127.0.0.2: a crawl whose scope leaked would connect there. `.invalid` never resolves (RFC 6761).
 */
const CANARY_HOST = 'canary.invalid';

/** Pages robots.txt of diveintopython.test forbids (Disallow: /tmp/ and /d/), linked from the hub. */
const FORBIDDEN = ['/d/forbidden.html', '/tmp/scratch.html'];

const PROSE =
  'The lamp in the tower had burned for forty years, and on the night of the storm it was the only thing that the sailors could see from the rocks.';

function options(web: TestWeb, strategy: StrategyName): HarvestOptions {
  return {
    strategy,
    concurrency: 4,
    seed: 7,
    reward: REWARD,
    maxDepth: MAX_DEPTH,
    depthFrom: 'seed',
    hosts: ['*.test'],
    leaseMs: 60_000,
    // The canary's name is mapped, so only the hosts constraint keeps the crawl from dialling it.
    fetcher: { resolve: [...web.resolve, `${CANARY_HOST}:127.0.0.2`], contact: 'mailto:tests@anwc.test', timeoutMs: 10_000 },
    politeness: { delayMs: 0 },
    narrative: {},
  };
}

interface Crawl {
  web: TestWeb;
  store: Store;
  db: TestDb;
  dir: string;
  hub: string;
  report: HarvestReport;
  corpus: CorpusUrl[];
  links: Map<string, Link>;
  queryId: number;
}

/** A fresh database and a fresh test web (request counts start at 0): import, seed, harvest. */
async function crawl(fresh: () => TestDb, strategy: StrategyName, more: Partial<HarvestOptions> = {}): Promise<Crawl> {
  const web = await startTestWeb();
  const db = fresh();
  const store = await openStore(db.url);
  const dir = mkdtempSync(join(tmpdir(), 'anwc-e2e-'));
  for (const path of FORBIDDEN) web.page('diveintopython.test', path, `<!DOCTYPE html><html><body><p>${PROSE}</p></body></html>`);
  const extra = [...FORBIDDEN.map((p) => web.url('diveintopython.test', p)), 'https://standardebooks.org/', web.url(CANARY_HOST, '/trap.html')];
  const hub = hubPage(web, { extra });

  writeFileSync(join(dir, 'story.ane'), STORY);
  const imported = await importFiles(store, [join(dir, 'story.ane')]);
  assert.deepEqual(imported.files.map((f) => f.status), ['imported']);
  writeFileSync(join(dir, 'seeds.txt'), `# meta: ${SEED_META.join(', ')}\n${hub}\n`);
  const seeded = await seed({ provider: createProvider('file', { file: join(dir, 'seeds.txt') }), store, perQuery: 10 });
  assert.equal(seeded.newLinks, 1);
  const queryId = (await store.linkByUrl(hub))!.queryId!;

  const report = await harvest(store, { ...options(web, strategy), ...more });
  const corpus = corpusUrls(web);
  const links = await storedLinks(store, [hub, ...extra, ...corpus.map((c) => c.url)]);
  return { web, store, db, dir, hub, report, corpus, links, queryId };
}

async function dispose(c: Crawl | undefined): Promise<void> {
  if (!c) return;
  await c.store.close();
  await c.web.close();
  await c.db.cleanup();
  rmSync(c.dir, { recursive: true, force: true });
}

const nodesOf = (l: Link | undefined): number => Number(l?.outcome?.detail?.nodes ?? 0);

function e2eSuite(name: string, fresh: () => TestDb): void {
  describe(`harvest end to end on ${name}`, { skip: SHARED }, () => {
    let c: Crawl;
    before(async () => {
      c = await crawl(fresh, 'roulette');
    });
    after(() => dispose(c));

    it('the roulette walk ends with the frontier empty and no link left pending or leased', async () => {
      assert.equal(c.report.stop, 'frontier-empty');
      const sum = await c.store.summary();
      assert.deepEqual(Object.keys(sum.links).sort(), ['done', 'excluded'], JSON.stringify(sum.links));
      assert.equal(c.report.stats.pagesDone, sum.links.done! + sum.links.excluded!);
      assert.equal(c.report.stats.leaseLost, 0);
    });

    it('a crawler node carries the meta words it speaks of (the word in its text, in its page’s title or headings, or its profile’s terms); the author’s nodes stay as imported', async () => {
      const words = (await c.store.queryMetaWords(c.queryId)).map((w) => w.stem).sort();
      assert.equal(words.length, SEED_META.length);
      const profiles = new Map((await c.store.profiles()).map((p) => [p.metaWordId, p]));
      const crawler = await c.store.nodes({ origin: 'crawler' });
      assert.ok(crawler.length > 0);
      assert.equal(crawler.length, c.report.stats.newNodes);
      const stemsOf = (text: string) => new Set(contentStems(text));
      let byProfile = 0;
      for (const n of crawler) {
        const page = c.corpus.find((u) => u.url === n.sourceUrl);
        assert.ok(page, `${n.sourceUrl} is a corpus page`);
        const heads = stemsOf(parseDom(readFileSync(page.file, 'utf8')).querySelectorAll('title, h1, h2, h3, h4, h5, h6').map((e) => e.text).join(' '));
        const own = stemsOf(n.text);
        for (const l of await c.store.nodeLinks(n.id)) {
          const e = l.evidence!;
          const said = `“${n.text.slice(0, 60)}…” → ${l.metaWord.stem}`;
          assert.ok(e, `${said}: no evidence`);
          if (e.literal === 'text') assert.ok(own.has(l.metaWord.stem), said);
          else if (e.literal === 'heading') assert.ok(heads.has(l.metaWord.stem), said);
          else {
            byProfile++;
            const profile = profiles.get(l.metaWord.id)!;
            assert.ok(e.terms.length >= MIN_CONTEXT_TERMS && e.terms.every((t) => own.has(t) && t in profile.terms), `${said}: ${e.terms.join(', ')}`);
            assert.ok(e.terms.some((t) => profile.anchors.includes(t)), `${said}: no word the author put beside it`);
          }
        }
      }
      assert.ok(byProfile > 0, 'some links rest on the profile alone');
      assert.ok(crawler.some((n) => n.metaWords.length > 0) && crawler.some((n) => n.metaWords.length === 0), 'some speak of the seed words, and the rest are linked to none');
      const author = await c.store.nodes({ origin: 'author' });
      assert.deepEqual(author.map((n) => n.sentences.length), [2, 1]);
    });

    it('paragraphs of Sherlock Holmes and The Time Machine become nodes whose source is their chapter', async () => {
      for (const [host, path] of [['sherlock.test', '/text/a-scandal-in-bohemia.xhtml'], ['timemachine.test', '/text/chapter-1.xhtml']] as const) {
        const page = c.corpus.find((u) => u.host === host && u.path === path)!;
        const paragraph = plainParagraph(page.file);
        const stem = paragraph.split(' ').slice(0, 3).join(' ');
        const [node] = (await c.store.nodes({ origin: 'crawler' })).filter((n) => n.text === paragraph);
        assert.ok(node, `no node for “${stem}…” of ${host}${path}`);
        assert.equal(node.sourceUrl, page.url);
        assert.deepEqual(node.sentences, [], 'a crawler node is stored as its text alone');
        assert.ok(exportSentences(node).length > 1, 'exported, the paragraph is split into sentences');
        assert.ok(nodesOf(c.links.get(page.url)) > 0);
      }
    });

    it('robots.txt of diveintopython.test keeps /d/ and /tmp/ unfetched, each link excluded by robots', () => {
      for (const path of FORBIDDEN) {
        assert.equal(c.web.count('diveintopython.test', path), 0, path);
        const link = c.links.get(c.web.url('diveintopython.test', path));
        assert.equal(link?.status, 'excluded', path);
        assert.equal(link?.outcome?.kind, 'robots', path);
      }
      assert.equal(c.report.stats.failures.robots, FORBIDDEN.length);
      assert.ok(c.web.count('diveintopython.test', '/index.html') === 1, 'the rest of the site was walked');
    });

    it('each page is requested once if walked and never otherwise; robots.txt once per host', () => {
      let walked = 0;
      for (const u of c.corpus) {
        if (u.path === '/robots.txt') continue;
        const link = c.links.get(u.url);
        const expected = link?.status === 'done' ? 1 : 0;
        assert.equal(c.web.count(u.host, u.path), expected, `${u.url} (${link?.status ?? 'not stored'})`);
        walked += expected;
      }
      assert.ok(walked > 100, `${walked} corpus pages walked`);
      for (const host of [HUB_HOST, ...Object.keys(SITES)]) assert.equal(c.web.count(host, '/robots.txt'), 1, host);
      assert.equal(c.web.count(HUB_HOST, '/sites.html'), 1);
    });

    it('a domain’s score is 1 plus the reward for each page that yielded a node; the hub, with none, stays at 1', async () => {
      const productive = new Map<string, number>();
      for (const [, l] of c.links) if (nodesOf(l) > 0) productive.set(l.host, (productive.get(l.host) ?? 0) + 1);
      assert.equal([...productive.values()].reduce((a, b) => a + b, 0), c.report.stats.pagesWithNodes);
      for (const host of ['sherlock.test', 'timemachine.test', 'chickens.test']) assert.ok((productive.get(host) ?? 0) > 5, host);
      for (const host of [HUB_HOST, ...Object.keys(SITES)]) {
        const d = await c.store.domain(host);
        assert.equal(d?.score, 1 + REWARD * (productive.get(host) ?? 0), host);
      }
      assert.equal(nodesOf(c.links.get(c.hub)), 0);
      assert.equal((await c.store.domain(HUB_HOST))?.score, 1);
      const wheel = new Map(c.report.wheel.map((w) => [w.host, w.score]));
      assert.equal(wheel.get('sherlock.test'), (await c.store.domain('sherlock.test'))?.score, 'the report shows the stored wheel');
    });

    it('links to real sites are dropped by the hosts constraint and never stored', async () => {
      const outside = [
        'https://standardebooks.org/',
        c.web.url(CANARY_HOST, '/trap.html'),
        outsideLink(c.corpus.find((u) => u.host === 'debian.test' && u.path === '/index.html')!.file),
        outsideLink(c.corpus.find((u) => u.host === 'diveintopython.test' && u.path === '/index.html')!.file),
      ];
      for (const url of outside) assert.equal(await c.store.linkByUrl(url), undefined, url);
      assert.ok((c.report.stats.droppedLinks['hosts *.test'] ?? 0) >= outside.length);
      assert.equal((await c.store.summary()).domains, 1 + Object.keys(SITES).length, 'no domain outside the test web');
      if (c.web.canaryListening) assert.equal(c.web.canaryConnections(), 0);
    });

    it('bfs and dfs also run to an empty frontier and walk the same pages and nodes as the wheel, up to which of two near-copies came first', async () => {
      const done = (x: Crawl) => [...x.links.values()].filter((l) => l.status === 'done').map((l) => new URL(l.url).pathname + '@' + l.host).sort();
      const texts = async (x: Crawl) => (await x.store.nodes({ origin: 'crawler' })).map((n) => n.text).sort();
      const wheelPages = done(c);
      const wheelTexts = await texts(c);
      for (const strategy of ['bfs', 'dfs'] as const) {
        let other: Crawl | undefined;
        try {
          other = await crawl(fresh, strategy);
          assert.equal(other.report.stop, 'frontier-empty', strategy);
          assert.equal(other.report.strategy.name, strategy);
          assert.deepEqual(done(other), wheelPages, strategy);
          const otherTexts = await texts(other);
          assert.deepEqual(notNearAny(otherTexts, wheelTexts), [], `${strategy}: its nodes are the wheel's or near-copies of them`);
          assert.deepEqual(notNearAny(wheelTexts, otherTexts), [], `${strategy}: the wheel's nodes are its own or near-copies of them`);
          assert.ok(otherTexts.filter((t) => wheelTexts.includes(t)).length > 0.95 * wheelTexts.length, 'near-copies are the exception');
          for (const path of FORBIDDEN) assert.equal(other.web.count('diveintopython.test', path), 0, `${strategy} ${path}`);
        } finally {
          await dispose(other);
        }
      }
    });
  });
}

e2eSuite('SQLite', sqliteDb);

describe('harvest end to end with the narrative action on its own thread', { skip: SHARED }, () => {
  it('stores the nodes and outcomes the action on the main thread stores, one page at a time in the same order', async () => {
    let started = 0;
    const count = (): void => void started++;
    process.on('worker', count);
    const inline = await crawl(sqliteDb, 'roulette', { concurrency: 1 });
    const inlineThreads = started;
    const threaded = await crawl(sqliteDb, 'roulette', { concurrency: 1, actionThread: true }).catch(async (err) => {
      await dispose(inline);
      throw err;
    }).finally(() => process.off('worker', count));
    try {
      assert.deepEqual([inlineThreads, started], [0, 1], 'the second crawl, and it alone, started a thread');
      // Each crawl has a web of its own, on a port of its own.
      const unported = (url: string | null) => url?.replace(/^(http:\/\/[^/:]+):\d+\//, '$1/');
      const nodes = async (c: Crawl) => (await c.store.nodes({ origin: 'crawler' }))
        .map((n) => ({ text: n.text, sentences: n.sentences, source: unported(n.sourceUrl), relevance: n.relevance, meta: n.metaWords.map((m) => m.stem) }));
      const outcomes = (c: Crawl) => [...c.links].map(([url, l]) => [unported(url), l.status, l.outcome?.kind, nodesOf(l)]);
      const expected = await nodes(inline);
      assert.ok(expected.length > 0 && expected.some((n) => n.meta.length > 0));
      assert.deepEqual(await nodes(threaded), expected);
      assert.deepEqual(outcomes(threaded), outcomes(inline));
      assert.deepEqual([threaded.report.stats.pagesDone, threaded.report.stats.newNodes], [inline.report.stats.pagesDone, inline.report.stats.newNodes]);
    } finally {
      await dispose(inline);
      await dispose(threaded);
    }
  });
});
// Set ANWC_TEST_MYSQL=off to run without a server; otherwise a missing server fails the suite.
if (process.env.ANWC_TEST_MYSQL !== 'off') e2eSuite('MariaDB', mysqlDb);
