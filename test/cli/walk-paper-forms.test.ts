import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * `anwc walk` with activities written in the W4 paper's own forms, on a local web of three
 * servers that name themselves differently: the Lisp predicates choose the pages they say,
 * salton-check-uri in the paper's order reports what anwc's earlier order does, and
 * walk-sorted-inferiors (:search …) walks the links that hold the words first.
 */

const SERVERS: Record<string, string | undefined> = {
  'clhttp.test': 'CL-HTTP/70.218 (Macintosh Common Lisp)',
  'apache.test': 'Apache/2.4.62 (Debian)',
  'quiet.test': undefined,
};
const LISP = 'A Lisp server answers every request, and a Lisp web server written in Common Lisp is small.';
const FILLER = 'The weather in the valley was mild that spring, and the farmers planted barley along the river.';

let web: TestWeb;
let dir: string;
const page = (host: string, path: string, text: string, links: [string, string][] = []) =>
  web.page(
    host,
    path,
    `<!DOCTYPE html><html><head><title>${path}</title></head><body><p>${text}</p>${links.map(([h, a]) => `<a href="${h}">${a}</a>`).join(' ')}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8', ...(SERVERS[host] ? { server: SERVERS[host]! } : {}) } },
  );

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-paper-walk-'));
  const everywhere: [string, string][] = [
    [web.url('clhttp.test', '/docs/walker.html'), 'walker'],
    [web.url('clhttp.test', '/misc/notes.html'), 'notes'],
    [web.url('apache.test', '/docs/guide.html'), 'guide'],
    [web.url('apache.test', '/misc/old.html'), 'old'],
    [web.url('quiet.test', '/docs/plain.html'), 'plain'],
  ];
  page('clhttp.test', '/docs/', FILLER, everywhere);
  page('apache.test', '/docs/', FILLER, everywhere);
  page('clhttp.test', '/docs/walker.html', LISP);
  page('clhttp.test', '/misc/notes.html', FILLER);
  page('apache.test', '/docs/guide.html', `${FILLER} A guide to the valley.`);
  page('apache.test', '/misc/old.html', FILLER);
  page('quiet.test', '/docs/plain.html', `${LISP} ${FILLER}`);
  // Links in page order: zeta (no word), web (1), lisp-web (2), none (0), one whose URL holds "lisp" (1).
  page('sort.test', '/', FILLER, [['/a/zeta.html', 'Zeta'], ['/b/w.html', 'the Web'], ['/c/both.html', 'Lisp on the web'], ['/d/none.html', 'none'], ['/e/lisp.html', 'x']]);
  for (const p of ['/a/zeta.html', '/b/w.html', '/c/both.html', '/d/none.html', '/e/lisp.html']) page('sort.test', p, FILLER);
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = ['--resolve', '*.test:127.0.0.1', '--hosts', '*.test', '--delay', '0', '--progress', 'none', '--concurrency', '1'];

async function walk(name: string, activity: string, root: string, ...more: string[]) {
  const file = join(dir, name);
  writeFileSync(file, activity);
  const r = await anwc(['walk', root, '--activity', file, ...common, ...more], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  return r;
}

/** The pages `trace` printed, as host+path. */
const traced = (stdout: string) =>
  stdout.split('\n').filter((l) => /^\s*200 /.test(l)).map((l) => {
    const u = new URL(l.trim().split(' ')[1]!);
    return `${u.hostname}${u.pathname}`;
  }).sort();

describe('anwc walk with the paper\'s forms', () => {
  it('header-server #\'(lambda (server) (search "CL-HTTP" server)) walks only the CL-HTTP server; the others get a HEAD and no GET', async () => {
    const r = await walk('lisp-servers.w4', `(define-activity lisp-servers
  :constraint-set ((depth 1) (header-server #'(lambda (server) (search "CL-HTTP" server))))
  :actions ((trace) (walk-inferiors)))`, web.url('clhttp.test', '/docs/'));
    assert.deepEqual(traced(r.stdout), ['clhttp.test/docs/', 'clhttp.test/docs/walker.html', 'clhttp.test/misc/notes.html']);
    assert.equal(web.count('apache.test', '/docs/guide.html'), 1, 'a HEAD, answered by the header constraint');
    assert.equal(web.count('quiet.test', '/docs/plain.html'), 1, 'no Server header: NIL');
  });

  it('header-predicate with (value available-p) takes the Apache server and the one that does not say', async () => {
    const r = await walk('apache-or-silent.w4', `(define-activity apache-or-silent
  :constraint-set ((depth 1)
                   (header-predicate :server #'(lambda (value available-p)
                                                 (or (not available-p) (search "apache" value :test #'char-equal)))))
  :actions ((trace) (walk-inferiors)))`, web.url('apache.test', '/docs/'));
    assert.deepEqual(traced(r.stdout), ['apache.test/docs/', 'apache.test/docs/guide.html', 'apache.test/misc/old.html', 'quiet.test/docs/plain.html']);
  });

  it('uri-satisfies on the path decides before any request: pages outside /docs/ are never asked for', async () => {
    const before = web.count('apache.test', '/misc/old.html');
    const r = await walk('docs-only.w4', `(define-activity docs-only
  :constraint-set ((depth 1) (uri-satisfies #'(lambda (uri) (search "/docs/" (path-directory-string uri)))))
  :actions ((trace) (walk-inferiors)))`, web.url('clhttp.test', '/docs/'));
    assert.deepEqual(traced(r.stdout), ['apache.test/docs/guide.html', 'clhttp.test/docs/', 'clhttp.test/docs/walker.html', 'quiet.test/docs/plain.html']);
    assert.equal(web.count('apache.test', '/misc/old.html'), before, 'a URI constraint costs no request');
  });

  it('a predicate that meets data of another type rejects the page, and anwc why says why', async () => {
    const state = `sqlite:${join(dir, 'typed.sqlite')}`;
    const typed = "#'(lambda (value available-p) (or (not available-p) (> value 2)))";
    const quiet = await walk('typed.w4', `(define-activity typed :constraint-set ((header-predicate :server ${typed})) :actions ((trace)))`, web.url('quiet.test', '/docs/plain.html'), '--state', state);
    assert.deepEqual(traced(quiet.stdout), ['quiet.test/docs/plain.html'], 'no Server header: the predicate holds');
    const apache = await walk('typed.w4', `(define-activity typed :constraint-set ((header-predicate :server ${typed})) :actions ((trace)))`, web.url('apache.test', '/docs/guide.html'), '--state', state);
    assert.equal(apache.stdout, '', 'a Server header is text: > fails on it, so the page is not walked');
    const why = await anwc(['why', web.url('apache.test', '/docs/guide.html'), '--db', state], { cwd: dir });
    assert.equal(why.code, 0, why.stderr);
    assert.match(why.stdout, /not walked: constraint "\(header-predicate :server #'\(lambda .*\)" \(header class\) said no: threw: > takes numbers, got "Apache\/2\.4\.62 \(Debian\)"/);
  });

  it('salton-check-uri in the paper\'s order (THRESHOLD WORDS WEIGHTS STREAM) reports the pages the earlier order does', async () => {
    const activity = (action: string) => `(define-activity locate-lisp :constraint-set ((depth 1)) :actions (${action} (walk-inferiors)))`;
    const paper = await walk('paper.w4', activity('(salton-check-uri 0.02 ("lisp" "server") (0.9 0.5) *standard-output*)'), web.url('clhttp.test', '/docs/'));
    const ours = await walk('ours.w4', activity('(salton-check-uri ("lisp" "server") (0.9 0.5) 0.02)'), web.url('clhttp.test', '/docs/'));
    const reported = (out: string) => out.split('\n').filter((l) => /^\d\.\d{4} /.test(l)).sort();
    assert.deepEqual(reported(paper.stdout).map((l) => new URL(l.split(' ')[1]!).pathname), ['/docs/plain.html', '/docs/walker.html']);
    assert.deepEqual(reported(paper.stdout), reported(ours.stdout));
  });

  it('walk-sorted-inferiors (:search "lisp" "web") walks the links holding more of the words first, ties in page order', async () => {
    const since = web.arrivals('sort.test').length;
    await walk('search-first.w4', '(define-activity search-first :strategy bfs :constraint-set ((depth 1)) :actions ((walk-sorted-inferiors (:search "lisp" "web"))))', web.url('sort.test', '/'));
    const order = web.arrivals('sort.test').slice(since).map((a) => a.path).filter((p) => p !== '/robots.txt');
    assert.deepEqual(order, ['/', '/c/both.html', '/b/w.html', '/e/lisp.html', '/a/zeta.html', '/d/none.html']);
  });

  it('walk-sorted-inferiors #\'(lambda (a b) …) sorts as stable-sort does: A first when the predicate holds', async () => {
    const since = web.arrivals('sort.test').length;
    await walk('none-first.w4', `(define-activity none-first :strategy bfs :constraint-set ((depth 1))
  :actions ((walk-sorted-inferiors #'(lambda (a b) (and (search "none" (anchor-text a)) (not (search "none" (anchor-text b))))))))`, web.url('sort.test', '/'));
    const order = web.arrivals('sort.test').slice(since).map((a) => a.path).filter((p) => p !== '/robots.txt');
    assert.deepEqual(order, ['/', '/d/none.html', '/a/zeta.html', '/b/w.html', '/c/both.html', '/e/lisp.html']);
  });
});
