import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc } from '../support/cli.js';
import { needsShared } from '../support/shared.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/** `anwc map` as a user runs it: a small site with a repeated link, a broken one, another host and a hostile title; the corpus. */

const HOST = 'map.test';
let web: TestWeb;
let dir: string;
const html = (title: string, links: string[]) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-map-'));
  web.page(HOST, '/', html('Home', ['/a.html', '/a.html', '/b.html', '/missing.html', web.url('elsewhere.test', '/')]));
  web.page(HOST, '/a.html', html('A &lt;script&gt;alert(1)&lt;/script&gt; &quot;x', ['/', '/deep/one.html']));
  web.page(HOST, '/b.html', html('B', ['/deep/two.html']));
  web.page(HOST, '/deep/one.html', html('One', ['/deeper.html']));
  web.page(HOST, '/deep/two.html', html('Two', []));
  web.page(HOST, '/deeper.html', html('Deeper', []));
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--concurrency', '1'];
interface MapJson {
  nodes: { id: string; url: string; state: string; status?: number; depth?: number; title?: string; contentType?: string; lastModified?: string }[];
  edges: { source: string; target: string; tag: string }[];
  tree: { url: string; children: { url: string }[] }[];
}

describe('anwc map', () => {
  let map: MapJson;
  let run: { code: number | null; stderr: string };
  before(async () => {
    run = await anwc(['map', web.url(HOST, '/'), '--depth', '2', '--same-host', '--out', join(dir, 'm.json'), '--out', join(dir, 'm.html'), '--out', join(dir, 'm.graphml'), '--out', join(dir, 'm.gexf'), '--out', join(dir, 'm.dot'), ...common()]);
    if (run.code === 0) map = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as MapJson;
  });

  it('walks to --depth and no further', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.equal(web.count(HOST, '/deep/one.html'), 1);
    assert.equal(web.count(HOST, '/deeper.html'), 0, 'depth 3 is never asked for');
    assert.equal(web.count('elsewhere.test'), 0, '--same-host leaves the other host a leaf');
  });

  it('keeps every link as an edge, repeats included, with what became of each target', () => {
    const id = (path: string) => map.nodes.find((n) => n.url === web.url(HOST, path))!.id;
    const home = id('/');
    assert.equal(map.edges.filter((e) => e.source === home).length, 5, 'five <a> on the home page, /a.html twice');
    assert.equal(map.edges.filter((e) => e.source === home && e.target === id('/a.html')).length, 2);
    const missing = map.nodes.find((n) => n.url === web.url(HOST, '/missing.html'))!;
    assert.deepEqual([missing.state, missing.status], ['failed', 404]);
    const a = map.nodes.find((n) => n.url === web.url(HOST, '/a.html'))!;
    assert.deepEqual([a.state, a.status, a.depth, a.contentType], ['walked', 200, 1, 'text/html; charset=utf-8']);
    assert.equal(map.nodes.find((n) => n.url === web.url('elsewhere.test', '/'))!.state, 'outside');
    const deeper = map.nodes.find((n) => n.url === web.url(HOST, '/deeper.html'));
    assert.equal(deeper?.state, 'outside', 'a link past the depth is a leaf of the map');
  });

  it('draws the discovery tree: each page under the page it was found on', () => {
    assert.equal(map.tree.length, 1);
    const home = map.tree[0]!;
    assert.equal(home.url, web.url(HOST, '/'));
    const expected = [web.url(HOST, '/a.html'), web.url(HOST, '/b.html'), web.url(HOST, '/missing.html'), web.url('elsewhere.test', '/')];
    assert.deepEqual(home.children.map((c) => c.url).sort(), expected.sort());
  });

  it('writes the same graph as GraphML, GEXF and DOT, and an HTML tree with the hostile title escaped', () => {
    const edges = map.edges.length;
    assert.equal((readFileSync(join(dir, 'm.graphml'), 'utf8').match(/<edge /g) ?? []).length, edges);
    assert.equal((readFileSync(join(dir, 'm.gexf'), 'utf8').match(/<edge /g) ?? []).length, edges);
    assert.equal((readFileSync(join(dir, 'm.dot'), 'utf8').match(/ -> /g) ?? []).length, edges);
    const page = readFileSync(join(dir, 'm.html'), 'utf8');
    assert.doesNotMatch(page, /<script>alert/);
    assert.ok(page.includes('A &lt;script&gt;alert(1)&lt;/script&gt; &quot;x'));
    // Opened at the root, folded below it; the links outside the map grouped by host, folded.
    assert.equal(page.match(/<details open>/g)?.length, 1);
    assert.match(page, /<details><summary>outside the map: elsewhere\.test:\d+ \(1 link\)<\/summary>/);
    // The site graph: a dot for each page of the map, none for the outside link.
    const svg = /<svg [^>]*aria-label="The site graph: (\d+) page\(s\)[^>]*>.*<\/svg>/s.exec(page);
    assert.ok(svg, 'the HTML map draws the site graph');
    const inside = map.nodes.filter((n) => n.state !== 'outside').length;
    assert.equal(Number(svg[1]), inside);
    assert.equal(svg[0].match(/<circle /g)?.length, inside);
    // The HTML counts pages as the run summary on stderr does.
    const walked = /pages walked\s+(\d+)/.exec(run.stderr)![1];
    assert.match(page, new RegExp(`<dt>pages walked</dt><dd>${walked}</dd>`));
  });

  it('prints the tree when no file is asked for', async () => {
    const r = await anwc(['map', web.url(HOST, '/'), '--depth', '1', '--hosts', HOST, ...common()]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, /^200 http:\/\/map\.test:\d+\/ {2}Home$/);
    assert.ok(lines.some((l) => /^ {2}404 http:\/\/map\.test:\d+\/missing\.html$/.test(l)), r.stdout);
  });

  it('draws SVG with Graphviz, or says in one line that it is not installed', async (t) => {
    const file = join(dir, 'm.svg');
    const r = await anwc(['map', web.url(HOST, '/'), '--depth', '1', '--hosts', HOST, '--out', file, ...common()]);
    const hasDot = !spawnSync('dot', ['-V']).error;
    if (!hasDot && process.env.ANWC_REQUIRE_GRAPHVIZ === '1') assert.fail('Graphviz (dot) is required here');
    if (hasDot) {
      assert.equal(r.code, 0, r.stderr);
      assert.match(readFileSync(file, 'utf8'), /<svg[\s>]/);
    } else {
      t.diagnostic('Graphviz is not installed: checked the message instead of the drawing');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Graphviz is not installed/);
      assert.equal(existsSync(file), false);
    }
  });

  it('takes --constraints in the activity form, and points into it when it is wrong', async () => {
    const r = await anwc(['map', web.url(HOST, '/'), '--depth', '2', '--hosts', HOST, '--constraints', '(not ((uri-search "deep")))', '--json', ...common()]);
    assert.equal(r.code, 0, r.stderr);
    const m = JSON.parse(r.stdout) as MapJson;
    assert.ok(m.nodes.every((n) => n.state !== 'walked' || !n.url.includes('deep')));
    for (const [args, pattern] of [
      [['--constraints', '((depth 2) (uri-serch "x"))'], /--constraints:1:\d+/],
      [['--constraints', '((depth'], /--constraints:1:\d+/],
      [['--out', join(dir, 'map.png')], /no map format/],
    ] as const) {
      const bad = await anwc(['map', web.url(HOST, '/'), ...args, ...common()]);
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(bad.stderr, pattern);
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    }
  });
});

describe('anwc map: the corpus', { skip: needsShared('corpus') }, () => {
  it('maps a book of the corpus: every chapter the contents page links is a walked page of the map', async () => {
    const file = join(dir, 'book.json');
    const r = await anwc(['map', web.url('timemachine.test', '/toc.xhtml'), '--depth', '1', '--same-host', '--out', file, ...common()]);
    assert.equal(r.code, 0, r.stderr);
    const m = JSON.parse(readFileSync(file, 'utf8')) as MapJson;
    const chapters = m.nodes.filter((n) => /\/text\/chapter-\d+\.xhtml$/.test(n.url));
    assert.ok(chapters.length >= 12, `${chapters.length} chapters`);
    assert.ok(chapters.every((c) => c.state === 'walked' && c.status === 200 && c.title));
    const toc = m.nodes.find((n) => n.url.endsWith('/toc.xhtml'))!;
    assert.ok(m.edges.filter((e) => e.source === toc.id).length >= chapters.length);
  });
});
