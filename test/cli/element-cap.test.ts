import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_ELEMENTS } from '../../src/html/limits.js';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb, type TestDb } from '../support/db.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * A page of more elements than a tree holds (html/dom.ts MAX_ELEMENTS) is read up to the cap: the
 * story before it is stored, what lies past it is not, and the user is told where they look (the
 * run summary and `anwc why`), as for a body cut at --max-bytes.
 */

const HOST = 'wide.test';
const BEFORE = 'The keeper climbed the hundred steps of the tower every evening, and he lit the lamp before the sun went down behind the island.';
const PAST = 'Nobody who came to the island after the war ever saw the keeper again, though the lamp was lit each night until the spring.';
const WIDE = `<!DOCTYPE html><html><head><title>Wide</title></head><body><p>${BEFORE}</p><table><tr>${'<td>7</td>'.repeat(MAX_ELEMENTS)}</tr></table><p>${PAST}</p></body></html>`;
let web: TestWeb;
let db: TestDb;

before(async () => {
  web = await startTestWeb();
  db = sqliteDb();
  web.page(HOST, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  web.page(HOST, '/wide.html', WIDE);
});
after(async () => {
  await web.close();
  await db.cleanup();
});

describe('a page past the cap of elements a tree holds', () => {
  it('is harvested up to the cap, and the summary and why say it was read in part', async () => {
    const store = await openStore(db.url);
    await store.addLinks([{ url: web.url(HOST, '/wide.html'), host: HOST, depth: 0 }]);
    await store.close();
    const r = await anwc(['harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', HOST, '--delay', '0', '--progress', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /pages read only in part \(a body cut at --max-bytes, or a tree past 50,000 elements\): 1/);
    const stored = await openStore(db.url);
    assert.deepEqual((await stored.nodes({})).map((n) => n.text), [BEFORE]);
    await stored.close();
    const why = await anwc(['why', web.url(HOST, '/wide.html'), '--db', db.url]);
    assert.equal(why.code, 0, why.stderr);
    assert.match(why.stdout, /harvested: HTTP 200, 1 narrative node\(s\) .*; the page was read only in part/);
  });

  it('anwc extract judges it up to the cap and says so in one line on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anwc-wide-'));
    try {
      const file = join(dir, 'wide.html');
      writeFileSync(file, WIDE);
      const r = await anwc(['extract', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, `anwc: ${file}: read up to its first 50,000 elements, as a page's tree holds no more; what follows is not judged\n`);
      assert.match(r.stdout, /ACCEPT p#0 +"The keeper climbed/);
      assert.doesNotMatch(r.stdout, /Nobody who came/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
