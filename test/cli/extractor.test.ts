import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb } from '../support/db.js';
import { startTestWeb } from '../support/testweb.js';

const P1 = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const P2 = 'From the gallery she could see the whole bay, and the fishing boats were small and dark against the silver water.';

test('anwc harvest --extractor narrative finds the prose a page writes in divs, where the thesis extractor finds none', async () => {
  const web = await startTestWeb();
  try {
    web.page('divs.test', '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
    web.page('divs.test', '/story.html', `<html><body><div class="story"><div>${P1}</div><div>${P2}</div></div></body></html>`);
    const crawled: Record<string, string[]> = {};
    for (const extractor of ['thesis', 'narrative']) {
      const db = sqliteDb();
      try {
        const store = await openStore(db.url);
        await store.addLinks([{ url: web.url('divs.test', '/story.html'), host: 'divs.test', depth: 0 }]);
        await store.close();
        const r = await anwc(['harvest', '--db', db.url, '--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--progress', 'none', '--extractor', extractor]);
        assert.equal(r.code, 0, r.stderr);
        const after = await openStore(db.url);
        crawled[extractor] = (await after.nodes({ origin: 'crawler' })).map((n) => n.text);
        await after.close();
      } finally {
        await db.cleanup();
      }
    }
    assert.deepEqual(crawled, { thesis: [], narrative: [P1, P2] });
  } finally {
    await web.close();
  }
});

test('anwc harvest --extractor with an unknown name is one line and exit 2', async () => {
  const r = await anwc(['harvest', '--extractor', 'magic', '--db', 'sqlite:/nonexistent/none.sqlite']);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /^anwc: --extractor takes one of thesis, narrative \(got "magic"\)/);
});
