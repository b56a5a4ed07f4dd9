import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dotString, mapDot } from '../../src/map/dot.js';
import { buildMap, discoveryTree, mapJson, treeText, type KnownLink, type PageFacts } from '../../src/map/graph.js';
import { mapHtml } from '../../src/map/html.js';
import { escapeXml as xmlText } from '../../src/html/escape.js';
import { mapGexf, mapGraphml } from '../../src/map/xml.js';

/** The mapper's model and writers: the multigraph keeps every link, the tree every page once, and no format lets a page's text out. */

const HOSTILE = 'Evil <script>alert(1)</script> "onmouseover=x" & \u0007bell \\ back';
const page = (url: string, depth: number, refs: string[], title = ''): PageFacts => ({
  url, finalUrl: url, status: 200, contentType: 'text/html', title, depth, headers: { server: 'test' }, refs: refs.map((r) => ({ url: r, tag: 'a' })),
});
const ROOT = 'http://m.test/';
const PAGES = [
  page(ROOT, 0, ['http://m.test/a', 'http://m.test/a', 'http://m.test/b', 'http://other.test/']),
  page('http://m.test/a', 1, [ROOT, 'http://m.test/b'], HOSTILE),
];
const KNOWN = new Map<string, KnownLink>([
  [ROOT, { state: 'walked', depth: 0 }],
  ['http://m.test/a', { state: 'walked', depth: 1, parent: ROOT }],
  ['http://m.test/b', { state: 'failed', depth: 1, status: 404, outcome: 'http-error', parent: ROOT }],
]);
const MAP = buildMap([ROOT], PAGES, KNOWN, { headers: true });

/** A strict enough XML check: declaration, balanced elements, no stray < or & in text or attributes. */
function wellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let rest = body;
  const tag = /^<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/;
  while (rest.length) {
    const lt = rest.indexOf('<');
    const text = lt < 0 ? rest : rest.slice(0, lt);
    assert.doesNotMatch(text, /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/, `bad & in ${text.slice(0, 40)}`);
    if (lt < 0) break;
    const m = tag.exec(rest.slice(lt));
    assert.ok(m, `not a tag at: ${rest.slice(lt, lt + 60)}`);
    assert.doesNotMatch(m[3]!, /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/);
    if (m[1]) assert.equal(stack.pop(), m[2], `closing ${m[2]}`);
    else if (!m[4]) stack.push(m[2]!);
    rest = rest.slice(lt + m[0].length);
  }
  assert.deepEqual(stack, []);
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'no character XML 1.0 forbids');
}

describe('the map model', () => {
  it('keeps one edge per link on a page, repeats included, and one node per URL', () => {
    assert.equal(MAP.edges.length, 6);
    assert.equal(MAP.nodes.length, 4);
    const a = MAP.nodes.find((n) => n.url === 'http://m.test/a')!;
    assert.equal(MAP.edges.filter((e) => e.target === a.id).length, 2);
    const b = MAP.nodes.find((n) => n.url === 'http://m.test/b')!;
    assert.deepEqual([b.state, b.status, b.outcome], ['failed', 404, 'http-error']);
    assert.equal(MAP.nodes.find((n) => n.url === 'http://other.test/')!.state, 'outside');
  });

  it('builds the discovery tree from where each page was found; a page outside the store hangs under the first page that links to it', () => {
    const tree = discoveryTree(MAP);
    assert.equal(tree.length, 1);
    assert.deepEqual(tree[0]!.children.map((c) => c.node.url).sort(), ['http://m.test/a', 'http://m.test/b', 'http://other.test/']);
    assert.match(treeText(MAP), /^200 http:\/\/m\.test\/\n {2}200 http:\/\/m\.test\/a {2}Evil/);
    const json = JSON.parse(mapJson(MAP)) as { tree: { url: string; children: unknown[] }[]; edges: unknown[] };
    assert.equal(json.tree[0]!.children.length, 3);
    assert.equal(json.edges.length, 6);
  });
});

describe('the map writers', () => {
  it('write GraphML and GEXF that parse, with the hostile title escaped and its control character dropped', () => {
    for (const xml of [mapGraphml(MAP), mapGexf(MAP)]) {
      wellFormed(xml);
      assert.ok(xml.includes('Evil &lt;script&gt;alert(1)&lt;/script&gt; &quot;onmouseover=x&quot; &amp; bell'));
    }
    assert.equal((mapGraphml(MAP).match(/<edge /g) ?? []).length, 6);
    assert.equal((mapGexf(MAP).match(/<edge /g) ?? []).length, 6);
    assert.equal(xmlText('a\u0000b\ud800c'), 'abc');
  });

  it('writes DOT with one statement per link and every string escaped', () => {
    const dot = mapDot(MAP);
    assert.equal((dot.match(/ -> /g) ?? []).length, 6);
    assert.equal(dotString('say "hi"\\\nnext\u0007'), '"say \\"hi\\"\\\\\\nnext"');
    assert.ok(dot.includes('label="Evil <script>alert(1)</script> \\"onmouseover=x\\" & bell \\\\ back\\nm.test/a"'));
  });

  it('writes HTML with nothing of the page active: escaped text, headers when asked', () => {
    const html = mapHtml(MAP, [['roots', ROOT]]);
    assert.doesNotMatch(html, /<script>alert/);
    assert.ok(html.includes('Evil &lt;script&gt;alert(1)&lt;/script&gt; &quot;onmouseover=x&quot;'));
    assert.match(html, /<details open><summary>/);
    assert.match(html, /server: test/);
  });
});
