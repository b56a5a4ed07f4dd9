import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseDom } from '../../src/html/dom.js';
import { anwc } from '../support/cli.js';

/**
 * What an author sees after the demo: a click on "lighthouse" gives a paragraph about a
 * lighthouse. Crawler nodes are linked to a meta word only when their text, or their page's
 * title and headings, speak of it; before, every node under a query carried the query's whole
 * meta set, and "lighthouse" drew letters about trains.
 */

let dir: string;
let db: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'anwc-demo-pick-'));
  db = `sqlite:${join(dir, 'demo.sqlite')}`;
  const demo = await anwc(['demo', '--db', db, '--port', '0', '--progress', 'none']);
  assert.equal(demo.code, 0, demo.stderr);
  assert.equal((await anwc(['mix', '1', '--db', db])).code, 0, 'crawler nodes only, so that every draw tests the links');
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The demo page a node came from, as the demo served it from demo/sites. */
function sourcePage(url: string): string {
  const u = new URL(url);
  return readFileSync(resolve('demo', 'sites', u.hostname, u.pathname === '/' ? 'index.html' : u.pathname.slice(1)), 'utf8');
}

describe('anwc pick after the demo', () => {
  it('draws for "lighthouse" only paragraphs that speak of a lighthouse, or stand on a page whose title or headings do', async () => {
    const sources = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const r = await anwc(['pick', 'lighthouse', '--seed', String(seed), '--json', '--db', db]);
      assert.equal(r.code, 0, r.stderr);
      const node = JSON.parse(r.stdout) as { origin: string; text: string; sourceUrl: string };
      assert.equal(node.origin, 'crawler');
      sources.add(new URL(node.sourceUrl).hostname);
      if (/lighthouse/i.test(node.text)) continue;
      const dom = parseDom(sourcePage(node.sourceUrl));
      const heads = dom.querySelectorAll('title, h1, h2, h3, h4, h5, h6').map((e) => e.text).join(' ');
      assert.match(heads, /lighthouse/i, `${node.sourceUrl}: "${node.text.slice(0, 60)}…" says nothing of a lighthouse`);
    }
    assert.ok(!sources.has('railway-letters.demo'), 'no railway letter');
  });
});
