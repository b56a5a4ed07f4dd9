import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harvest } from '../../src/harvest/harvest.js';
import { openStore } from '../../src/store/open.js';
import { anwc } from '../support/cli.js';
import { sqliteDb } from '../support/db.js';
import { startTestWeb } from '../support/testweb.js';

const STORY = 'The keeper climbed the stairs of the tower at dusk, and the lamp was lit before the first boat came round the point.';
const OTHER = 'My grandmother kept her recipes in a tin box on the shelf above the stove, and nobody else was allowed to open it.';

test('a harvest links a site\'s repeated footer and a mirror\'s edited copy to the nodes they repeat; stats count them', async () => {
  const web = await startTestWeb();
  const db = sqliteDb();
  const store = await openStore(db.url);
  try {
    const footer = 'This story was first printed in the Harbour Gazette, and it is shared here with the kind permission of its author.';
    for (const host of ['tales.test', 'mirror.test']) web.page(host, '/robots.txt', 'User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
    web.page('tales.test', '/1.html', `<html><body><p>${STORY}</p><p>${footer}</p></body></html>`);
    web.page('tales.test', '/2.html', `<html><body><p>${OTHER}</p><p>${footer}</p></body></html>`);
    web.page('mirror.test', '/1.html', `<html><body><p>${STORY.replace('at dusk', 'at night')}</p></body></html>`);
    const urls = [web.url('tales.test', '/1.html'), web.url('tales.test', '/2.html'), web.url('mirror.test', '/1.html')];
    await store.addLinks(urls.map((url) => ({ url, host: new URL(url).hostname, depth: 0 })));
    await harvest(store, {
      strategy: 'bfs', concurrency: 1, reward: 1, maxDepth: 1, hosts: ['*.test'], leaseMs: 60_000,
      fetcher: { resolve: web.resolve }, politeness: { delayMs: 0 }, narrative: {},
    });
    const sum = await store.summary();
    assert.equal(sum.nodes.crawler, 3, 'the story, the footer and the other story; the mirror\'s copy is none');
    assert.deepEqual(sum.copies, { exact: 1, near: 1 });
    const [story] = await store.nodes({ origin: 'crawler', limit: 1 });
    assert.equal(story!.text, STORY);
    await store.close();
    const stats = await anwc(['stats', '--db', db.url]);
    assert.match(stats.stdout, /paragraphs met again on other pages: 2 \(the same text 1, near-copies 1\)/);
  } finally {
    await store.close();
    await db.cleanup();
    await web.close();
  }
});
