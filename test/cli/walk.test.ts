import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc as run } from '../support/cli.js';
import { prose, startFlakyWeb, type FlakyWeb } from '../support/flaky.js';
import { needsShared, SHARED_DIR } from '../support/shared.js';

/**
 * `anwc walk` as a user runs it: activity files in both forms on a small local site, the W4
 * paper's Definition 3 as printed, the HTML report, sorted walks, and bad input.
 */

const anwc = (args: string[], cwd: string) => run(args, { cwd });

let web: FlakyWeb;
let dir: string;
const HOST = 'site.test';
const page = (links: string[], title = 'Page') =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body>${prose(title)}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

before(async () => {
  web = await startFlakyWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-walk-'));
  // depth 0 → 1 → 2 → 3: the walk to depth 2 must never ask for /d3.html.
  web.page(HOST, '/robots.txt', { html: 'User-agent: *\nDisallow: /private/\n' });
  web.page(HOST, '/', page(['/d1.html', '/b.html', '/private/p.html', '/']));
  web.page(HOST, '/d1.html', page(['/d2.html', '/']));
  // The title as text is `B <script>alert(1)</script> & "quoted"`: hostile once written into our report.
  web.page(HOST, '/b.html', page(['/a.html'], 'B &lt;script&gt;alert(1)&lt;/script&gt; &amp; "quoted"'));
  web.page(HOST, '/a.html', page([]));
  web.page(HOST, '/d2.html', page(['/d3.html']));
  web.page(HOST, '/d3.html', page([]));
  web.page(HOST, '/private/p.html', page([]));
});
after(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const common = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--concurrency', '1'];

describe('anwc walk', () => {
  it('runs the shipped trace-walk: pages two links deep traced with their headers, a HEAD before each GET, robots.txt obeyed', async () => {
    const before = web.hits(HOST).length;
    const r = await anwc(['walk', web.url(HOST, '/'), '--activity', 'trace-walk', ...common()], dir);
    assert.equal(r.code, 0, r.stderr);
    const traced = r.stdout.split('\n').filter((l) => /^\s*200 /.test(l)).map((l) => new URL(l.trim().split(' ')[1]!).pathname);
    assert.deepEqual(traced.sort(), ['/', '/a.html', '/b.html', '/d1.html', '/d2.html']);
    assert.match(r.stdout, /^\s+content-type: text\/html/m, 'trace-headers printed the headers');
    const hits = web.hits(HOST).slice(before);
    assert.equal(hits.filter((h) => h.path === '/d3.html').length, 0, 'depth 3 is never asked for');
    assert.equal(hits.filter((h) => h.path.startsWith('/private/')).length, 0, 'robots.txt disallows /private/');
    assert.match(r.stderr, /walk stopped: frontier-empty/);
  });

  it('header constraints are answered by a HEAD: a page they reject gets no GET', async () => {
    const file = join(dir, 'small.json');
    writeFileSync(file, JSON.stringify({
      name: 'small-only',
      constraints: [['depth', 1], ['header-content-length-upto', 10]],
      actions: [['trace'], ['walk-inferiors']],
    }));
    const before = web.hits(HOST).length;
    const r = await anwc(['walk', web.url(HOST, '/'), '--activity', file, ...common()], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', 'every page is longer than 10 bytes: nothing traced');
    assert.match(r.stderr, /constraint: \(header-content-length-upto 10\)/);
    const root = web.hits(HOST).slice(before).filter((h) => h.path === '/');
    assert.equal(root.length, 1, 'one HEAD, no GET, for the root');
  });

  it('writes one escaped HTML report from the html-* actions, items gathered in one list', async () => {
    const file = join(dir, 'report.w4');
    writeFileSync(file, `(define-activity overview
  :constraint-set ((depth 1))
  :actions ((html-with-enumeration *standard-output* :itemize ((html-trace) (html-show-uri-overview))) (walk-inferiors)))`);
    const out = join(dir, 'overview.html');
    const r = await anwc(['walk', web.url(HOST, '/'), '--activity', file, '--report', out, ...common()], dir);
    assert.equal(r.code, 0, r.stderr);
    const html = readFileSync(out, 'utf8');
    assert.equal(html.match(/<ul>/g)?.length, 1, 'one list for the whole walk');
    assert.equal(html.match(/<li>/g)?.length, 3, 'the root and its two followable depth-1 pages');
    assert.ok(!html.includes('<script>alert'), 'a page title is escaped');
    assert.ok(html.includes('B &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;'));
  });

  it('an activity named like a path writes its report in the working folder, under a file name made of the name', async () => {
    const cwd = mkdtempSync(join(dir, 'named-'));
    const file = join(cwd, 'escape.w4');
    writeFileSync(file, '(define-activity ../../escaped :constraint-set ((depth 0)) :actions ((html-trace *standard-output*)))');
    const r = await anwc(['walk', web.url(HOST, '/'), '--activity', file, ...common()], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /HTML report written to escaped-report\.html/);
    assert.ok(existsSync(join(cwd, 'escaped-report.html')));
    assert.equal(existsSync(join(cwd, '..', '..', 'escaped-report.html')), false);
  });

  it('walk-sorted-inferiors alphabetical takes a page\'s links A to Z', async () => {
    const file = join(dir, 'sorted.w4');
    writeFileSync(file, '(define-activity sorted :strategy bfs :constraint-set ((depth 1)) :actions ((walk-sorted-inferiors alphabetical)))');
    const before = web.hits(HOST).length;
    const r = await anwc(['walk', web.url(HOST, '/d1.html'), web.url(HOST, '/b.html'), '--activity', file, ...common()], dir);
    assert.equal(r.code, 0, r.stderr);
    const order = web.hits(HOST).slice(before).map((h) => h.path).filter((p) => p !== '/robots.txt');
    assert.deepEqual(order.slice(2), ['/', '/a.html', '/d2.html'], 'after the roots: their links in URL order');
  });

  it('bad input: a missing activity, a broken file, a bad URL — one line each, exit 2', async () => {
    const none = await anwc(['walk', web.url(HOST, '/'), '--activity', 'no-such', ...common()], dir);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^anwc: no activity file or built-in activity named no-such/);
    const file = join(dir, 'broken.w4');
    writeFileSync(file, '(define-activity broken\n  :constraint-set ((dept 2)))');
    const broken = await anwc(['walk', web.url(HOST, '/'), '--activity', file, ...common()], dir);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.w4:2:20: unknown constraint dept; did you mean depth/);
    const url = await anwc(['walk', 'ftp://x.test/', '--activity', 'trace-walk', ...common()], dir);
    assert.equal(url.code, 2);
    assert.equal(url.stderr.trim().split('\n').length, 1, url.stderr);
    assert.match(url.stderr, /cannot walk from ftp:\/\/x\.test\//);
  });

  it('--state keeps the frontier: a rerun resumes, and anwc why explains a URL', async () => {
    const state = `sqlite:${join(dir, 'state.sqlite')}`;
    const first = await anwc(['walk', web.url(HOST, '/'), '--activity', 'trace-walk', '--state', state, '--max-pages', '2', ...common()], dir);
    assert.equal(first.code, 0, first.stderr);
    const second = await anwc(['walk', web.url(HOST, '/'), '--activity', 'trace-walk', '--state', state, ...common()], dir);
    assert.match(second.stderr, /known from before \(resuming\)/);
    const firstTraced = first.stdout.split('\n').filter((l) => /^\s*200 /.test(l)).length;
    const secondTraced = second.stdout.split('\n').filter((l) => /^\s*200 /.test(l)).length;
    assert.equal(firstTraced + secondTraced, 5, 'each page traced once across the two runs');
    const why = await anwc(['why', web.url(HOST, '/private/p.html'), '--db', state], dir);
    assert.match(why.stdout, /robots\.txt/);
  });
});

const seeds = resolve(SHARED_DIR, 'seeds');
const paperFile = existsSync(seeds) ? readdirSync(seeds).find((f) => f.startsWith('000_')) : undefined;

describe('Definition 3 of the W4 paper', { skip: needsShared('seeds') || (paperFile ? false : `needs the W4 paper in ${seeds} (set ANWC_SHARED=DIR)`) }, () => {
  it('runs exactly as printed', async () => {
    const paper = readFileSync(resolve(seeds, paperFile!), 'utf8');
    const start = paper.indexOf('(define-activity', paper.indexOf('Definition 3:'));
    const text = paper.slice(start, paper.indexOf('5. Applications', start)).replace(/<\/?pre>/g, '');
    const file = join(dir, 'definition-3.w4');
    writeFileSync(file, text);
    const r = await anwc(['walk', web.url(HOST, '/'), '--activity', file, ...common()], dir);
    assert.equal(r.code, 0, r.stderr);
    const traced = r.stdout.split('\n').filter((l) => /^\s*200 /.test(l)).map((l) => new URL(l.trim().split(' ')[1]!).pathname);
    assert.deepEqual(traced.sort(), ['/', '/a.html', '/b.html', '/d1.html', '/d2.html']);
    assert.equal(web.hits(HOST).filter((h) => h.path === '/d3.html').length, 0);
  });
});
