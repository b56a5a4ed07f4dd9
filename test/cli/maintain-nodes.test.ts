import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.js';
import { stem } from '../../src/text/stem.js';
import { anwc } from '../support/cli.js';
import { prose } from '../support/flaky.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * `anwc maintain --nodes` as an author uses it after a harvest: the source pages are asked again;
 * a page deleted since marks its nodes gone, an edited page marks the node whose text left it
 * changed, an unchanged page answers the conditional GET of the next run with 304. `pick` then
 * leaves the gone nodes out unless asked, and `stats` counts them.
 */

const HOST = 'nodes.test';
let web: TestWeb;
let dir: string;
let db: string;
const page = (...paras: string[]) => `<!DOCTYPE html><html><head><title>t</title></head><body>${paras.join('')}</body></html>`;
const common = () => ['--db', db, '--resolve', '*.test:127.0.0.1', '--hosts', HOST, '--delay', '0', '--progress', 'none', '--max-retries', '0'];

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-nodes-'));
  db = `sqlite:${join(dir, 'ane.sqlite')}`;
  web.page(HOST, '/keep.html', page(prose('kept')), { headers: { etag: '"k1"' } });
  web.page(HOST, '/edit.html', page(prose('edited'), prose('staying')));
  web.page(HOST, '/gone.html', page(prose('lost')));
  // The harvest's seeds, as a search for the word "keeper" would have given them.
  const store = await openStore(db);
  const [word] = await store.ensureMetaWords([{ word: 'keeper', stem: stem('keeper') }]);
  const urls = ['/keep.html', '/edit.html', '/gone.html'].map((p) => web.url(HOST, p));
  await store.recordSeeds({ provider: 'test', terms: 'keeper', results: urls, metaWordIds: [word!.id] }, urls.map((url) => ({ url, host: HOST, depth: 0 })));
  await store.close();
  const harvest = await anwc(['harvest', ...common()]);
  assert.equal(harvest.code, 0, harvest.stderr);
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Picked {
  sourceUrl: string;
  status: string;
}

describe('anwc maintain --nodes', () => {
  let first: { code: number | null; stdout: string; stderr: string };
  before(async () => {
    web.page(HOST, '/edit.html', page(prose('rewritten'), prose('staying')));
    web.page(HOST, '/gone.html', 'no more', { status: 410 });
    first = await anwc(['maintain', '--nodes', ...common()]);
  });

  it('marks the nodes of a deleted page gone and the node whose text left its page changed; exit 1', () => {
    assert.equal(first.code, 1, first.stderr);
    const lines = first.stdout.trim().split('\n').map((l) => l.split('\t'));
    assert.deepEqual(lines, [
      ['gone', web.url(HOST, '/gone.html'), 'HTTP 410', '1 node(s)'],
      ['changed', web.url(HOST, '/edit.html'), '1 of 2 node(s) no longer on the page', '1 node(s)'],
    ]);
    assert.match(first.stderr, /3 source page\(s\) checked: 0 hold their text, 1 not modified, 1 changed \(1 node\(s\)\), 1 gone \(1 node\(s\)\)/);
    assert.equal(web.lastHeaders(HOST, '/keep.html')!['if-none-match'], '"k1"', 'the first check is conditional already: the harvest kept the ETag');
  });

  it('keeps every node, each with what its check found', async () => {
    const store = await openStore(db);
    const nodes = await store.nodes({ origin: 'crawler' });
    await store.close();
    const status = Object.fromEntries(nodes.map((n) => [n.text.match(/the (\w+)th time/)![1], n.status]));
    assert.deepEqual(status, { kept: 'ok', edited: 'changed', staying: 'ok', lost: 'gone' });
    assert.ok(nodes.every((n) => n.checkedAt !== null));
  });

  it('pick leaves the gone node out, and draws it with --with-gone', async () => {
    const picks: Picked[] = [];
    const withGone: Picked[] = [];
    for (let seed = 0; seed < 24; seed++) {
      picks.push(JSON.parse((await anwc(['pick', 'keeper', '--seed', String(seed), '--json', '--db', db])).stdout) as Picked);
      withGone.push(JSON.parse((await anwc(['pick', 'keeper', '--seed', String(seed), '--json', '--with-gone', '--db', db])).stdout) as Picked);
    }
    assert.ok(!picks.some((p) => p.status === 'gone'), 'no gone node drawn');
    assert.ok(withGone.some((p) => p.status === 'gone'), 'with --with-gone the gone node is among the draws');
  });

  it('stats counts the nodes by what their source said', async () => {
    const stats = await anwc(['stats', '--db', db]);
    assert.match(stats.stdout, /crawler nodes by source \(anwc maintain --nodes\): ok 2, changed 1, gone 1/);
  });

  it('asks again with the validators of the last check: an unchanged page answers 304', async () => {
    const before = web.count(HOST, '/keep.html');
    const again = await anwc(['maintain', '--nodes', '--json', ...common()]);
    assert.equal(again.code, 1, again.stderr);
    assert.equal(web.count(HOST, '/keep.html'), before + 1);
    assert.equal(web.lastHeaders(HOST, '/keep.html')!['if-none-match'], '"k1"');
    const out = JSON.parse(again.stdout) as { results: { url: string; verdict: string }[] };
    assert.equal(out.results.find((r) => r.url === web.url(HOST, '/keep.html'))!.verdict, 'unchanged');
  });

  it('a node whose text comes back is ok again', async () => {
    web.page(HOST, '/edit.html', page(prose('edited'), prose('staying')));
    await anwc(['maintain', '--nodes', ...common()]);
    const store = await openStore(db);
    const nodes = await store.nodes({ origin: 'crawler', sourceUrl: web.url(HOST, '/edit.html') });
    await store.close();
    assert.deepEqual(nodes.map((n) => n.status), ['ok', 'ok']);
  });

  it('refuses --nodes with a task, and on a database that does not exist', async () => {
    const both = await anwc(['maintain', '--nodes', '--tree', web.url(HOST, '/'), '--db', db]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--nodes revalidates the stored nodes' sources, not a task: --tree given too/);
    const none = await anwc(['maintain', '--nodes', '--db', `sqlite:${join(dir, 'missing.sqlite')}`]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no anwc database at/);
  });
});
