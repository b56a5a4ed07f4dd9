import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb } from '../support/db.js';
import { BOTTOM, deepPage, STORY } from '../support/deep.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * A page nested 40,000 divs deep (below the tree's cap of elements, html/dom.ts MAX_ELEMENTS), with a paragraph and a link at the bottom of the nesting,
 * through every command that reads pages: each ends as it does for a normal page (such a page
 * overflowed the stack at 4,000 levels: extract and archive exited 3, maintain called the page
 * broken), the story is judged and the link found.
 */

const HOST = 'deep.test';
const LEVELS = 40_000;
let web: TestWeb;
let dir: string;
const common = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', HOST];

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-deep-'));
  web.page(HOST, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
  web.page(HOST, '/deep.html', deepPage(LEVELS));
  web.page(HOST, '/leaf.html', '<!DOCTYPE html><html><head><title>Leaf</title></head><body><p>The leaf.</p></body></html>');
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a page nested 40,000 elements deep', () => {
  it('anwc extract judges it with either extractor and keeps its story', async () => {
    const file = join(dir, 'deep.html');
    writeFileSync(file, deepPage(LEVELS));
    for (const extractor of ['thesis', 'narrative']) {
      const r = await anwc(['extract', '--extractor', extractor, file]);
      assert.equal(r.code, 0, r.stderr);
      for (const p of STORY) assert.ok(r.stdout.includes(p.slice(0, 50)), `${extractor}: ${r.stdout}`);
    }
    // The paragraph at the bottom is read whole: it ends with a link's words, and the thesis's rules say so.
    const thesis = await anwc(['extract', file]);
    assert.match(thesis.stdout, new RegExp(`REJECT p#2 +capitalization: .*"${BOTTOM.slice(0, 30)}`));
  });

  it('anwc harvest stores its story with either extractor and walks on to the link at its bottom', async () => {
    for (const extractor of ['thesis', 'narrative']) {
      const db = sqliteDb();
      try {
        const store = await openStore(db.url);
        await store.addLinks([{ url: web.url(HOST, '/deep.html'), host: HOST, depth: 0 }]);
        await store.close();
        const before = web.count(HOST, '/leaf.html');
        const r = await anwc(['harvest', '--db', db.url, ...common(), '--extractor', extractor]);
        assert.equal(r.code, 0, r.stderr);
        const after = await openStore(db.url);
        const texts = (await after.nodes({ origin: 'crawler' })).map((n) => n.text);
        await after.close();
        for (const p of STORY) assert.ok(texts.includes(p), `${extractor}: ${texts.join(' | ')}`);
        assert.equal(web.count(HOST, '/leaf.html'), before + 1, `${extractor}: the leaf was fetched`);
      } finally {
        await db.cleanup();
      }
    }
  });

  it('anwc archive copies it and the page its bottom links to', async () => {
    const out = join(dir, 'archive');
    const r = await anwc(['archive', web.url(HOST, '/deep.html'), '--out', out, ...common()]);
    assert.equal(r.code, 0, r.stderr);
    const urls = readFileSync(join(out, '.anwc', 'headers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).url);
    assert.deepEqual(urls.sort(), [web.url(HOST, '/deep.html'), web.url(HOST, '/leaf.html')]);
  });

  it('anwc maintain finds it ok and tests the link at its bottom', async () => {
    const db = sqliteDb();
    try {
      const before = web.count(HOST, '/leaf.html');
      const r = await anwc(['maintain', '--tree', web.url(HOST, '/deep.html'), '--db', db.url, ...common()]);
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /2 link\(s\): 0 broken, 0 moved, 0 refused, 0 not tested, 0 excluded, 2 ok/);
      assert.ok(web.count(HOST, '/leaf.html') > before, 'the leaf was tested');
    } finally {
      await db.cleanup();
    }
  });
});
