import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSexprActivity } from '../../src/walk/activity/parse.js';
import { emptyEffects, pageView, type Effects, type PageView } from '../../src/walk/actions/action.js';
import { compileActions } from '../../src/walk/actions/compile.js';
import { reportDocument } from '../../src/walk/actions/html.js';
import { saltonScore } from '../../src/walk/actions/salton.js';
import { actionsActivity } from '../../src/walk/actions/activity.js';
import { MAX_ELEMENTS } from '../../src/html/limits.js';
import { mapPage } from '../../src/map/action.js';
import type { PageFacts } from '../../src/map/graph.js';
import type { Link } from '../../src/store/store.js';
import type { FetchedPage } from '../../src/walk/fetch-step.js';

/** Each action of appendix B on one page: what it writes to the report and what it asks the walk to do. */

const LINK: Link = {
  id: 1, url: 'http://a.test/docs/', domainId: 1, host: 'a.test', depth: 1, status: 'leased', queryId: null, referrerId: null, referrerUrl: null,
  etag: null, lastModified: null, leaseOwner: 'me', leaseExpiresAt: null, outcome: null, discoveredAt: 0, attempts: 0, notBefore: null, priority: 0,
};

const HTML = `<!DOCTYPE html><html><head><title>Lisp &amp; the "Web"</title></head><body>
<p>The lisp server answers every request; a lisp web server is small.</p>
<a href="zeta.html">Zeta</a> <a href="alpha.html">Alpha</a> <a href="/deep/er/x.html"></a>
<a href="server-lisp.html">lisp server notes</a> <a rel="nofollow" href="login.html">log in</a>
<a href="javascript:alert(1)">bad</a></body></html>`;

function page(headers: Record<string, string> = {}): FetchedPage {
  return {
    url: LINK.url, finalUrl: LINK.url, status: 200, text: HTML, body: new TextEncoder().encode(HTML), truncated: false, method: 'GET', requestHeaders: {},
    contentType: 'text/html', headers: { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Mon, 01 Jan 1996 00:00:00 GMT', 'x-evil': '<b>"x"</b>', ...headers },
  };
}

interface Ran {
  text: string[];
  html: string[];
  out: Effects;
}

async function run(actions: string): Promise<Ran> {
  const spec = parseSexprActivity(`(define-activity t :actions (${actions}))`, 't.w4');
  const text: string[] = [];
  const html: string[] = [];
  const view: PageView = pageView(page(), LINK, 'anwc', { text: (l) => text.push(l), html: (f) => html.push(f) });
  const out = emptyEffects();
  for (const a of compileActions(spec.actions, 't.w4')) await a.run(view, out);
  return { text, html, out };
}

const paths = (out: Effects) => out.follow.map((f) => new URL(f.url).pathname);

describe('appendix B actions', () => {
  it('trace prints the status and URL, indented by depth; trace-headers every header', async () => {
    const r = await run('(trace) (trace-headers)');
    assert.equal(r.text[0], '  200 http://a.test/docs/');
    assert.ok(r.text.includes('    last-modified: Mon, 01 Jan 1996 00:00:00 GMT'));
    assert.deepEqual(r.out.follow, [], 'tracing follows nothing');
  });

  it('walk-inferiors follows the page\'s http links in document order, not nofollow nor javascript:', async () => {
    const r = await run('(walk-inferiors)');
    assert.deepEqual(paths(r.out), ['/docs/zeta.html', '/docs/alpha.html', '/deep/er/x.html', '/docs/server-lisp.html']);
    assert.ok(r.out.follow.every((f) => f.priority === undefined));
  });

  it('walk-sorted-inferiors gives priorities in the ordering named', async () => {
    const byPriority = (r: Ran) => [...r.out.follow].sort((a, b) => b.priority! - a.priority!).map((f) => new URL(f.url).pathname);
    assert.deepEqual(byPriority(await run('(walk-sorted-inferiors alphabetical)')), ['/deep/er/x.html', '/docs/alpha.html', '/docs/server-lisp.html', '/docs/zeta.html']);
    assert.equal(byPriority(await run('(walk-sorted-inferiors shallow-first)')).at(-1), '/deep/er/x.html');
    assert.equal(byPriority(await run('(walk-sorted-inferiors described-first)')).at(-1), '/deep/er/x.html', 'the link with no text last');
  });

  it('walk-sorted-inferiors (:search …) puts links holding more of the words first; a Lisp predicate sorts as stable-sort', async () => {
    const byPriority = (r: Ran) => [...r.out.follow].sort((a, b) => b.priority! - a.priority!).map((f) => new URL(f.url).pathname);
    // Anchor texts: Zeta, Alpha, (none), "lisp server notes"; "server" is also in that link's URL.
    assert.deepEqual(byPriority(await run('(walk-sorted-inferiors (:search "LISP" "notes" "alpha"))')), ['/docs/server-lisp.html', '/docs/alpha.html', '/docs/zeta.html', '/deep/er/x.html']);
    const deepFirst = "(walk-sorted-inferiors #'(lambda (a b) (and (search \"/deep/\" (name-string a)) (not (search \"/deep/\" (name-string b))))))";
    assert.deepEqual(byPriority(await run(deepFirst)), ['/deep/er/x.html', '/docs/zeta.html', '/docs/alpha.html', '/docs/server-lisp.html']);
    // A predicate that fails on the data (a number compared with text) gives no preference: page order.
    assert.deepEqual(byPriority(await run("(walk-sorted-inferiors #'(lambda (a b) (< (host-port a) (search \"x\" (anchor-text b)))))")), ['/docs/zeta.html', '/docs/alpha.html', '/deep/er/x.html', '/docs/server-lisp.html']);
  });

  it('salton-check-uri reports a page over the threshold with its matched words, and keeps quiet under it', async () => {
    const hit = await run('(salton-check-uri ("lisp" "server") (0.9 0.5) 0.01)');
    const expected = saltonScore(HTML.replace(/<[^>]+>/g, ' '), { words: ['lisp', 'server'], weights: [0.9, 0.5] }).score;
    assert.equal(hit.out.located.length, 1);
    assert.deepEqual(hit.out.located[0]!.matched, ['lisp', 'server']);
    assert.ok(Math.abs(hit.out.located[0]!.score - expected) < 0.02, `${hit.out.located[0]!.score} ≈ ${expected}`);
    assert.match(hit.text[0]!, /^0\.\d{4} http:\/\/a\.test\/docs\/ \(lisp, server\)$/);
    const miss = await run('(salton-check-uri ("lisp" "server") (0.9 0.5) 0.99)');
    assert.deepEqual([miss.out.located.length, miss.text.length], [0, 0]);
    const paper = await run('(salton-check-uri 0.01 ("lisp" "server") (0.9 0.5) *standard-output*)');
    assert.deepEqual(paper.out.located, hit.out.located, 'the paper\'s order, THRESHOLD WORDS WEIGHTS STREAM');
    assert.deepEqual((await run('(salton-check-uri 0.99 ("lisp" "server") (0.9 0.5))')).out.located, []);
  });

  it('saltonScore sums weighted, normalised frequencies of the stems', () => {
    // Content words (stop words out): lisp, servers, lisp, run → 4 stems; lisp twice at 0.9, server once at 0.5.
    assert.equal(saltonScore('Lisp servers and lisp run', { words: ['lisp', 'server'], weights: [0.9, 0.5] }).score, (2 * 0.9 + 0.5) / 4);
    assert.equal(saltonScore('nothing here at all', { words: ['lisp'], weights: [1] }).score, 0);
  });

  it('walk-salton-sorted-inferiors walks the link whose words match first', async () => {
    const r = await run('(walk-salton-sorted-inferiors ("lisp" "server") (0.9 0.5))');
    const best = [...r.out.follow].sort((a, b) => b.priority! - a.priority!)[0]!;
    assert.equal(new URL(best.url).pathname, '/docs/server-lisp.html');
  });

  it('the HTML actions write escaped fragments; encapsulating actions wrap what they surround', async () => {
    const r = await run('(html-with-paragraph ((html-trace))) (html-write-headers) (html-show-uri-overview) (html-force-output)');
    assert.match(r.html[0]!, /^<p><div class="trace depth-1">.*<\/div><\/p>$/);
    assert.ok(r.html[1]!.includes('x-evil: &lt;b&gt;&quot;x&quot;&lt;/b&gt;'));
    assert.ok(r.html[2]!.includes('Lisp &amp; the &quot;Web&quot;'));
    assert.equal(r.html.length, 3, 'force-output writes nothing');
    const items = await run('(html-enumerating-item ((html-trace)))');
    assert.match(items.html[0]!, /^<li><div class="trace/);
  });

  it('html-with-enumeration: consecutive items become one list of the style asked; the document is self-contained', async () => {
    const r1 = await run('(html-with-enumeration :enumerate ((html-trace)))');
    const r2 = await run('(html-with-enumeration :enumerate ((html-trace)))');
    const doc = reportDocument('t <x>', [['roots', 'http://a.test/?a=1&b=2']], [...r1.html, ...r2.html, '<p>after</p>']);
    assert.equal(doc.match(/<ol>/g)?.length, 1);
    assert.equal(doc.match(/<li>/g)?.length, 2);
    assert.ok(doc.indexOf('</ol>') < doc.indexOf('<p>after</p>'));
    assert.ok(doc.includes('<title>t &lt;x&gt;</title>'));
    assert.ok(doc.includes('a=1&amp;b=2'));
    assert.doesNotMatch(doc, /<script|src=|https?:\/\/(?!a\.test)/, 'nothing loaded from elsewhere');
  });

  it('an unknown ordering or style is a file:line:col error', () => {
    assert.throws(() => compileActions(parseSexprActivity('(define-activity t\n :actions ((walk-sorted-inferiors by-magic)))', 'o.w4').actions, 'o.w4'),
      (e: Error) => /^o\.w4:2:12: unknown ordering by-magic; known: document, alphabetical/.test((e as unknown as { toLine(): string }).toLine()));
  });

  it('a page past the tree\'s element cap is walked up to the cut, and its outcome says it was read in part', async () => {
    const spec = parseSexprActivity('(define-activity t :actions ((walk-inferiors)))', 't.w4');
    const activity = actionsActivity('t', [], compileActions(spec.actions, 't.w4'), { text: () => undefined, html: () => undefined });
    const act = (html: string) => activity.act({ ...page(), text: html, body: new TextEncoder().encode(html) }, LINK, { token: 'anwc' });
    const links = '<a href="before.html">b</a><ul>' + '<li>x</li>'.repeat(MAX_ELEMENTS) + '</ul><a href="after.html">a</a>';
    const cut = await act(`<html><body>${links}</body></html>`);
    assert.deepEqual(cut.links.map((l) => new URL(typeof l === 'string' ? l : l.url).pathname), ['/docs/before.html']);
    assert.ok(cut.outcome.kind === 'walked' && cut.outcome.truncated);
    const whole = await act(HTML);
    assert.ok(whole.outcome.kind === 'walked' && whole.outcome.truncated === undefined);
  });

  it('a page past the cap has its references scanned up to the cut, and its outcome says it was read in part', async () => {
    const facts: PageFacts[] = [];
    const activity = actionsActivity('map', [], [mapPage((f) => facts.push(f))], { text: () => undefined, html: () => undefined });
    const act = (html: string) => activity.act({ ...page(), text: html, body: new TextEncoder().encode(html) }, LINK, { token: 'anwc' });
    const cut = await act(`<html><body><img src="before.png"><ul>${'<li>x</li>'.repeat(MAX_ELEMENTS)}</ul><img src="after.png"></body></html>`);
    assert.deepEqual(facts[0]!.refs.map((r) => new URL(r.url).pathname), ['/docs/before.png']);
    assert.ok(cut.outcome.kind === 'walked' && cut.outcome.truncated);
    const whole = await act('<html><body><img src="before.png"><img src="after.png"></body></html>');
    assert.deepEqual(facts[1]!.refs.map((r) => new URL(r.url).pathname), ['/docs/before.png', '/docs/after.png']);
    assert.ok(whole.outcome.kind === 'walked' && whole.outcome.truncated === undefined);
  });
});
