import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stem } from '../../src/text/stem.js';
import { demoAgent } from '../../src/demo/agent.js';
import { isIndexed, loadDemoPages, type DemoPage } from '../../src/demo/pages.js';
import { DEMO_TIMESTAMP, type SearchHit, type SearchResponse } from '../../src/demo/search.js';
import { startDemoWeb, type DemoWeb } from '../../src/demo/server.js';
import { get } from './http.js';

const pages = loadDemoPages();
const byTitle = new Map(pages.map((p) => [p.title, p]));

/** Occurrences of each query word (by Porter stem) in a page's text: the ranking's own measure. */
function occurrences(page: DemoPage, query: string): number[] {
  const stems = (page.text.match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []).map((w) => stem(w.replace(/’/g, "'")));
  return query.split(/\s+/).map((q) => stems.filter((s) => s === stem(q)).length);
}

describe('demo search engine (MediaWiki list=search shape)', () => {
  let web: DemoWeb;
  before(async () => {
    web = await startDemoWeb();
  });
  after(() => web.close());

  async function api(params: Record<string, string>, host = 'search.demo'): Promise<SearchResponse & { error?: { code: string } }> {
    const qs = new URLSearchParams({ action: 'query', list: 'search', format: 'json', formatversion: '2', ...params });
    const res = await get(web.port, host, `/w/api.php?${qs}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    return JSON.parse(res.body) as SearchResponse & { error?: { code: string } };
  }

  test('answers in the documented shape', async () => {
    const body = await api({ srsearch: 'lighthouse', srlimit: '3' });
    assert.deepEqual(Object.keys(body).sort(), ['batchcomplete', 'continue', 'query']);
    assert.equal(body.batchcomplete, true);
    assert.deepEqual(body.continue, { sroffset: 3, continue: '-||' });
    assert.equal(typeof body.query.searchinfo.totalhits, 'number');
    assert.equal(body.query.search.length, 3);
    for (const hit of body.query.search) {
      assert.deepEqual(Object.keys(hit), ['ns', 'title', 'pageid', 'size', 'wordcount', 'snippet', 'timestamp']);
      assert.equal(hit.ns, 0);
      assert.ok(Number.isInteger(hit.pageid) && hit.pageid > 0);
      assert.ok(hit.size > 0 && hit.wordcount > 0);
      assert.equal(hit.timestamp, DEMO_TIMESTAMP);
      assert.match(hit.snippet, /<span class="searchmatch">lighthouse<\/span>/i);
      assert.doesNotMatch(hit.snippet.replace(/<\/?span[^>]*>/g, ''), /[<>]/, 'page text is escaped');
      const page = byTitle.get(hit.title);
      assert.ok(page, hit.title);
      assert.equal(hit.size, page.size);
    }
  });

  test('words are ANDed, compared by stem, case-blind; ranked by how often they occur', async () => {
    const one = await api({ srsearch: 'garden', srlimit: 'max' });
    const two = await api({ srsearch: 'Garden ROSES', srlimit: 'max' });
    assert.ok(two.query.searchinfo.totalhits >= 1);
    assert.ok(two.query.searchinfo.totalhits < one.query.searchinfo.totalhits);
    const titlesOfOne = new Set(one.query.search.map((h) => h.title));
    for (const hit of two.query.search) assert.ok(titlesOfOne.has(hit.title), hit.title);
    for (const hit of two.query.search) {
      assert.ok(occurrences(byTitle.get(hit.title)!, 'garden roses').every((n) => n > 0), hit.title);
    }
    const storms = await api({ srsearch: 'storms', srlimit: 'max' });
    const storm = await api({ srsearch: 'storm', srlimit: 'max' });
    assert.deepEqual(storms.query.search.map((h) => h.title), storm.query.search.map((h) => h.title));
    const scores = storm.query.search.map((h) => occurrences(byTitle.get(h.title)!, 'storm')[0]!);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    // Every indexed page that holds all the words is found: fewer pages, fewer results.
    const expected = pages.filter((p) => isIndexed(p) && occurrences(p, 'storm').every((n) => n > 0)).length;
    assert.equal(storm.query.searchinfo.totalhits, expected);
  });

  test('a query no page answers has no hits and no continue', async () => {
    const body = await api({ srsearch: 'python programming language' });
    assert.deepEqual(body, { batchcomplete: true, query: { searchinfo: { totalhits: 0 }, search: [] } });
  });

  test('srlimit and sroffset page through the ranking; the last page has no continue', async () => {
    const all = await api({ srsearch: 'sea', srlimit: '500' });
    const total = all.query.searchinfo.totalhits;
    assert.ok(total > 7, `sea should match many pages, got ${total}`);
    assert.equal(all.query.search.length, total);
    assert.equal(all.continue, undefined);
    const seen: SearchHit[] = [];
    let offset: number | undefined = 0;
    let calls = 0;
    while (offset !== undefined) {
      const page = await api({ srsearch: 'sea', srlimit: '3', sroffset: String(offset) });
      assert.equal(page.query.searchinfo.totalhits, total);
      assert.ok(page.query.search.length <= 3);
      seen.push(...page.query.search);
      offset = page.continue?.sroffset;
      calls++;
    }
    assert.equal(calls, Math.ceil(total / 3));
    assert.deepEqual(seen, all.query.search);
    const beyond = await api({ srsearch: 'sea', sroffset: String(total + 5) });
    assert.deepEqual(beyond.query.search, []);
  });

  test('srlimit defaults to 10, "max" is 500, and out-of-range values are clamped', async () => {
    assert.equal((await api({ srsearch: 'sea' })).query.search.length, 10);
    assert.ok((await api({ srsearch: 'sea', srlimit: 'max' })).query.search.length > 10);
    assert.equal((await api({ srsearch: 'sea', srlimit: '0' })).query.search.length, 1);
  });

  test('errors come in MediaWiki’s error shape', async () => {
    assert.equal((await api({})).error?.code, 'missingparam');
    assert.equal((await api({ srsearch: 'sea', srlimit: 'many' })).error?.code, 'badinteger');
    assert.equal((await api({ srsearch: 'sea', list: 'allpages' })).error?.code, 'badvalue');
    assert.equal((await api({ srsearch: 'sea', action: 'parse' })).error?.code, 'badvalue');
  });

  test('keeps out what a polite engine would not index: robots-disallowed, noindex, only behind nofollow', async () => {
    // Ask for each page by its three longest words: it is found exactly when it is indexed.
    for (const p of pages) {
      const words = [...new Set(p.text.toLowerCase().match(/[a-z]+/g) ?? [])].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
      const body = await api({ srsearch: words.slice(0, 3).join(' '), srlimit: 'max' });
      assert.equal(body.query.search.some((h) => h.title === p.title), isIndexed(p), p.url);
    }
    const hidden = pages.filter((p) => !isIndexed(p)).map((p) => p.url);
    for (const url of [
      'http://lighthouse-journal.demo/private/drafts.html',
      'http://lighthouse-journal.demo/private/unsent-letter.html',
      'http://garden-almanac.demo/members.html',
      'http://railway-letters.demo/letters/the-last-letter.html',
    ]) {
      assert.ok(hidden.includes(url), url);
    }
  });

  test('/wiki/<Title> redirects to the page on its demo host', async () => {
    const res = await get(web.port, 'search.demo', `/wiki/${encodeURIComponent('The Pilot Boat'.replace(/ /g, '_'))}`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, web.url('harbour-tales.demo', '/stories/the-pilot-boat.html'));
    const colon = await get(web.port, 'search.demo', '/wiki/November:_the_first_storm');
    assert.equal(colon.headers.location, web.url('lighthouse-journal.demo', '/journal/november.html'));
    const curly = await get(web.port, 'search.demo', `/wiki/${encodeURIComponent('My_mother’s_garden')}`);
    assert.equal(curly.headers.location, web.url('garden-almanac.demo', '/essays/my-mothers-garden.html'));
    const home = await get(web.port, 'search.demo', '/wiki/Harbour_Tales');
    assert.equal(home.headers.location, web.url('harbour-tales.demo', '/'));
    assert.equal((await get(web.port, 'search.demo', '/wiki/No_such_page')).status, 404);
    assert.equal((await get(web.port, 'search.demo', '/wiki/Drafts_and_fragments')).status, 404, 'not indexed, no article');
  });

  test('the engine also answers on the server’s address; search.demo has a robots.txt', async () => {
    const body = await api({ srsearch: 'lighthouse keeper' }, '127.0.0.1');
    assert.ok(body.query.searchinfo.totalhits > 0);
    const robots = await get(web.port, 'search.demo', '/robots.txt');
    assert.equal(robots.status, 200);
    assert.match(robots.body, /^User-agent: \*$/m);
  });

  test('the wikipedia seed provider reads it through demoAgent, without DNS', async () => {
    const { request } = await import('undici');
    const agent = demoAgent();
    try {
      const res = await request(`${web.searchEndpoint}w/api.php?action=query&list=search&srsearch=letters+bottle&format=json&formatversion=2`, {
        dispatcher: agent,
      });
      const body = (await res.body.json()) as SearchResponse;
      assert.equal(body.query.search[0]?.title, 'The Bottle on Gull Beach');
      await assert.rejects(request('http://example.org/', { dispatcher: agent }), /ENOTFOUND|\.demo hosts only/);
      // The project's provider, unchanged, on the global dispatcher: seeds are /wiki/ URLs on search.demo.
      const { getGlobalDispatcher, setGlobalDispatcher } = await import('undici');
      const { wikipediaProvider } = await import('../../src/search/wikipedia.js');
      const previous = getGlobalDispatcher();
      setGlobalDispatcher(agent);
      try {
        const seeds = await wikipediaProvider({ endpoint: web.searchEndpoint }).search({ words: ['sea', 'lighthouse', 'keeper', 'night'] }, { count: 10 });
        assert.deepEqual(seeds.map((s) => s.url), [`${web.searchEndpoint}wiki/The_Pilot_Boat`, `${web.searchEndpoint}wiki/Lighthouse_Journal`]);
      } finally {
        setGlobalDispatcher(previous);
      }
    } finally {
      await agent.close();
    }
  });
});
