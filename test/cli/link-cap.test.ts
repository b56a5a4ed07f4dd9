import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb, type TestDb } from '../support/db.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * A page of 10,000 links gives the frontier its first 6,000 (Heritrix's cap) or the first
 * `--max-links-per-page`; the rest are counted where a user looks: the run summary, `anwc stats`
 * and `anwc why` on the page. One page of 200,000 links stored 179,000.
 */

const HOST = 'links.test';
const LINKS = 10_000;
let web: TestWeb;
const dbs: TestDb[] = [];
const common = () => ['--resolve', '*.test:127.0.0.1', '--hosts', HOST, '--delay', '0', '--progress', 'none', '--max-pages', '1'];

before(async () => {
  web = await startTestWeb();
  web.page(HOST, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  const list = Array.from({ length: LINKS }, (_, i) => `<li><a href="/p/${i}">page ${i}</a></li>`).join('');
  web.page(HOST, '/many.html', `<!DOCTYPE html><html><head><title>Many links</title></head><body><ul>${list}</ul></body></html>`);
});
after(async () => {
  await web.close();
  for (const db of dbs) await db.cleanup();
});

/** A database holding the page as a seed, and the number of links it holds after a harvest with `flags`. */
async function harvest(flags: string[]): Promise<{ db: TestDb; code: number | null; stdout: string; stderr: string; links: number }> {
  const db = sqliteDb();
  dbs.push(db);
  const store = await openStore(db.url);
  await store.addLinks([{ url: web.url(HOST, '/many.html'), host: HOST, depth: 0 }]);
  await store.close();
  const r = await anwc(['harvest', '--db', db.url, ...common(), ...flags]);
  const after = await openStore(db.url);
  const links = Object.values((await after.summary()).links).reduce((a, b) => a + b, 0);
  await after.close();
  return { db, code: r.code, stdout: r.stdout, stderr: r.stderr, links };
}

describe('the cap of links a page', () => {
  it('keeps the first 6,000 links of a page by default and counts the rest in the summary, stats and why', async () => {
    const r = await harvest([]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.links, 1 + 6000, 'the seed and its first 6,000 links');
    assert.match(r.stdout, /links past the cap of links a page \(--max-links-per-page\), not stored: 4000 on 1 page\(s\)/);
    const why = await anwc(['why', web.url(HOST, '/many.html'), '--db', r.db.url]);
    assert.equal(why.code, 0, why.stderr);
    assert.match(why.stdout, /6000 link\(s\) followed, 4000 more past the cap of links a page/);
    const stats = await anwc(['stats', '--db', r.db.url]);
    assert.match(stats.stdout, /1 pages, \d+ nodes, 4000 links past the cap of links a page/);
    // The seventh thousand is not in the frontier; the last of the six is.
    const store = await openStore(r.db.url);
    assert.ok(await store.linkByUrl(web.url(HOST, '/p/5999')));
    assert.equal(await store.linkByUrl(web.url(HOST, '/p/6000')), undefined);
    await store.close();
    const past = await anwc(['why', web.url(HOST, '/p/6000'), '--db', r.db.url, '--hosts', HOST]);
    assert.equal(past.code, 1);
    assert.match(past.stdout, /not in the database: no walked page's link to it was stored \(none links to it, or the run that met it dropped it at discovery: .*--max-links-per-page\)/, 'not "no walked page links to it": one did');
  });

  it('--max-links-per-page sets it, for the harvest and every walk', async () => {
    const r = await harvest(['--max-links-per-page', '100']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.links, 1 + 100);
    assert.match(r.stdout, /not stored: 9900 on 1 page\(s\)/);
    const state = sqliteDb();
    dbs.push(state);
    const walk = await anwc(['walk', web.url(HOST, '/many.html'), '--activity', 'trace-walk', '--state', state.url, ...common(), '--max-links-per-page', '10']);
    assert.equal(walk.code, 0, walk.stderr);
    assert.match(walk.stderr, /not stored: 9990 on 1 page\(s\)/);
  });

  it('a cap that is not a whole number above 0 is one line and exit 2', async () => {
    const r = await anwc(['harvest', '--max-links-per-page', '0', '--db', 'sqlite::memory:']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /max-links-per-page/);
  });
});
