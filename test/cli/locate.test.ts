import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseDom } from '../../src/html/index.js';
import { relevance, stem } from '../../src/text/index.js';
import { anwc } from '../support/cli.js';
import { startFlakyWeb, type FlakyWeb } from '../support/flaky.js';
import { needsShared } from '../support/shared.js';
import { startTestWeb } from '../support/testweb.js';

/**
 * `anwc locate` as a user runs it: a site where the documents about the words sit behind one
 * branch, found early by the best-first searches and late by breadth first; the ranked table in
 * its three forms; bad words and weights.
 */

const HOST = 'loc.test';
const FILLER = 'The weather in the valley was mild that spring, and the farmers planted early rows of beans and barley along the river.';
const doc = (title: string, text: string, links: [string, string][] = []) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>${links.map(([h, a]) => `<a href="${h}">${a}</a>`).join(' ')}</body></html>`;
const PAGES: Record<string, string> = {
  '/': doc('Home', FILLER, [['/a1.html', 'alpha'], ['/a2.html', 'beta'], ['/a3.html', 'gamma'], ['/lisp/', 'notes']]),
  '/lisp/': doc('Lisp', `${FILLER} Some notes on Lisp.`, [['/lisp/servers.html', 'a lisp server guide']]),
  '/lisp/servers.html': doc('Lisp servers &lt;script&gt;x&lt;/script&gt;', 'A Lisp server serves pages; Lisp servers are small, and a server written in Lisp is quick to change.'),
};
for (const a of ['a1', 'a2', 'a3']) {
  PAGES[`/${a}.html`] = doc(a, FILLER, [1, 2, 3].map((i): [string, string] => [`/${a}/x${i}.html`, `more ${i}`]));
  for (const i of [1, 2, 3]) PAGES[`/${a}/x${i}.html`] = doc(`${a} ${i}`, FILLER);
}

let web: FlakyWeb;
let dir: string;
before(async () => {
  web = await startFlakyWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-locate-'));
  for (const [path, html] of Object.entries(PAGES)) web.page(HOST, path, html);
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--concurrency', '1', '--hosts', HOST];
const locate = (...args: string[]) => anwc(['locate', web.url(HOST, '/'), '--words', 'lisp server', '--weights', '.9 .5', ...args, ...common()], { cwd: dir });

/** The pages the server was asked for by the last run, in order. */
function fetchOrder(since: number): string[] {
  return web.hits(HOST).slice(since).map((h) => h.path).filter((p) => p !== '/robots.txt');
}

describe('anwc locate', () => {
  it('ranks the documents over the threshold by Salton score, with title and matched words', async () => {
    const r = await locate('--format', 'json', '--threshold', '0.01');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { pagesRead: number; documents: { url: string; score: number; title: string; matched: string[] }[] };
    assert.equal(out.pagesRead, Object.keys(PAGES).length);
    assert.deepEqual(out.documents.map((d) => new URL(d.url).pathname), ['/lisp/servers.html', '/lisp/']);
    const text = parseDom(PAGES['/lisp/servers.html']!).structuredText;
    const expected = relevance(text, [stem('lisp'), stem('server')], { weights: { [stem('lisp')]: 0.9, [stem('server')]: 0.5 } });
    assert.ok(Math.abs(out.documents[0]!.score - expected) < 1e-12, `${out.documents[0]!.score} vs ${expected}`);
    assert.deepEqual(out.documents[0]!.matched, ['lisp', 'server']);
    assert.deepEqual(out.documents[1]!.matched, ['lisp', 'server'], 'the anchor text of a page is part of its text');
    const higher = JSON.parse((await locate('--format', 'json', '--threshold', String(expected))).stdout) as { documents: unknown[] };
    assert.equal(higher.documents.length, 1, 'the threshold keeps only what reaches it');
  });

  it('global best-first and the local sort fetch the promising branch first; breadth first does not', async () => {
    const position: Record<string, number> = {};
    for (const mode of ['global', 'local', 'bfs']) {
      const since = web.hits(HOST).length;
      const r = await locate('--search', mode, '--format', 'json');
      assert.equal(r.code, 0, r.stderr);
      position[mode] = fetchOrder(since).indexOf('/lisp/servers.html');
    }
    assert.ok(position.global! >= 0 && position.global! <= 2, JSON.stringify(position));
    assert.ok(position.local! >= 0 && position.local! <= 2, JSON.stringify(position));
    assert.ok(position.bfs! > 4, JSON.stringify(position));
  });

  it('writes the table as text and as escaped, self-contained HTML; BM25 ranks the same documents', async () => {
    const text = await locate('--threshold', '0.01');
    assert.equal(text.code, 0, text.stderr);
    const rows = text.stdout.trim().split('\n');
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /^\s*0\.\d{4}\s+http:\/\/loc\.test:\d+\/lisp\/servers\.html\s+Lisp servers <script>x<\/script>\s+lisp,server$/);
    const file = join(dir, 'found.html');
    const html = await locate('--format', 'html', '--out', file);
    assert.equal(html.code, 0, html.stderr);
    const page = readFileSync(file, 'utf8');
    assert.doesNotMatch(page, /<script>x/);
    assert.match(page, /Lisp servers &lt;script&gt;x&lt;\/script&gt;/);
    const bm = JSON.parse((await locate('--scoring', 'bm25', '--format', 'json')).stdout) as { documents: { url: string; score: number }[] };
    assert.deepEqual(bm.documents.map((d) => new URL(d.url).pathname), ['/lisp/servers.html', '/lisp/']);
    assert.ok(bm.documents[0]!.score > 1, 'a BM25 score, not a share');
  });

  it('refuses weights that do not fit the words, in one line and exit 2', async () => {
    for (const weights of ['.9', '.9 .5 .1', '.9 heavy']) {
      const r = await anwc(['locate', web.url(HOST, '/'), '--words', 'lisp server', '--weights', weights, ...common()], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});

describe('anwc locate: the corpus', { skip: needsShared('corpus') }, () => {
  it('finds the chapters about the Time Traveller\'s machine in the corpus book', async () => {
    const corpus = await startTestWeb();
    try {
      const r = await anwc(['locate', corpus.url('timemachine.test', '/toc.xhtml'), '--words', 'machine traveller', '--depth', '1', '--format', 'json',
        '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', 'timemachine.test']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { pagesRead: number; documents: { url: string; score: number }[] };
      assert.ok(out.pagesRead >= 10);
      assert.ok(out.documents.length >= 5, `${out.documents.length} documents`);
      assert.ok(out.documents.every((d) => /\/text\/chapter-\d+\.xhtml$|\/toc\.xhtml$|\/text\/\w[\w-]*\.xhtml$/.test(d.url)));
      for (let i = 1; i < out.documents.length; i++) assert.ok(out.documents[i - 1]!.score >= out.documents[i]!.score);
    } finally {
      await corpus.close();
    }
  });
});
