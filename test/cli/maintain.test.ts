import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anwc } from '../support/cli.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * `anwc maintain` as a link checker is used: a documentation tree with moved (301, 302→307
 * chains), gone (410), missing (404) and failing (500, refused) links, dates set from the test's
 * clock, leaves tested by HEAD (GET when HEAD is refused), and an Owner traversal.
 */

const HOST = 'mom.test';
const DAY = 86_400_000;
let web: TestWeb;
let side: Server;
let sidePort: number;
const sideLog: string[] = [];
let dir: string;
const html = (title: string, links: string[], head = '') => `<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

before(async () => {
  web = await startTestWeb();
  dir = mkdtempSync(join(tmpdir(), 'anwc-maintain-'));
  // A server of the test's own for what the shared web cannot do: log methods, refuse HEAD.
  side = createServer((req, res) => {
    sideLog.push(`${req.method} ${req.url}`);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/nohead.html' && req.method === 'HEAD') return void res.writeHead(405).end();
    // Never answers: the client's timeout ends it, and the server's close in after().
    if (req.url === '/silent.html') return;
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.method === 'HEAD' ? undefined : html('side', []));
  });
  await new Promise<void>((ok) => side.listen(0, '127.0.0.1', ok));
  sidePort = (side.address() as { port: number }).port;
  const sideUrl = (p: string) => `http://side.test:${sidePort}${p}`;
  const recent = new Date(Date.now() - DAY).toUTCString();
  const soon = new Date(Date.now() + 2 * DAY).toUTCString();
  web.page(HOST, '/docs/index.html', html('Docs &lt;b&gt;', [
    '/docs/a.html', '/docs/a.html', '/docs/b.html', '/docs/moved', '/docs/chain1', '/docs/perm', '/docs/gone.html', '/docs/missing.html', '/docs/error.html', '/outside.html',
    sideUrl('/leaf.html'), sideUrl('/nohead.html'), sideUrl('/silent.html'), 'http://refused.test:1/x.html',
  ]));
  web.page(HOST, '/docs/a.html', html('A', ['/docs/index.html']), { headers: { 'last-modified': recent } });
  web.page(HOST, '/docs/b.html', html('B', []), { headers: { expires: soon } });
  web.page(HOST, '/docs/moved', '', { status: 301, headers: { location: '/docs/b.html' } });
  web.page(HOST, '/docs/chain1', '', { status: 302, headers: { location: '/docs/chain2' } });
  web.page(HOST, '/docs/chain2', '', { status: 307, headers: { location: '/docs/a.html' } });
  web.page(HOST, '/docs/perm', '', { status: 308, headers: { location: '/docs/b.html' } });
  web.page(HOST, '/docs/gone.html', 'gone', { status: 410 });
  web.page(HOST, '/docs/error.html', 'oops', { status: 500 });
  web.page(HOST, '/outside.html', html('Outside', ['/never.html']));
  web.page(HOST, '/people/ann.html', html('Ann', ['/people/ann2.html', '/people/bob.html'], '<meta name="Owner" content="Ann">'));
  web.page(HOST, '/people/ann2.html', html('Ann 2', []), { headers: { owner: 'Ann' } });
  web.page(HOST, '/people/bob.html', html('Bob', ['/people/bob2.html'], '<META header name="Owner" value="Bob">'));
  web.page(HOST, '/people/bob2.html', html('Bob 2', []));
});
after(async () => {
  await web.close();
  side.closeAllConnections();
  await new Promise<void>((ok) => side.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

const common = () => ['--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--max-retries', '0', '--timeout', '1', '--hosts', `${HOST},side.test,refused.test`];

interface Report {
  docs: { url: string; refs: { url: string; kind: string; count: number }[] }[];
  checks: Record<string, { state: string; status?: number; detail?: string; movedTo?: string; method?: string }>;
  interesting: { moved: { url: string }[]; broken: { check: { url: string }; from: string[] }[]; modified: { url: string }[]; expiring: { url: string }[] };
}

describe('anwc maintain --tree', () => {
  let r: { code: number | null; stdout: string; stderr: string };
  let report: Report;
  const u = (p: string) => web.url(HOST, p);
  before(async () => {
    r = await anwc(['maintain', '--tree', u('/docs/index.html'), '--changed', '3', '--expired', '7', '--json',
      '--out', join(dir, 'index.html'), '--out', join(dir, 'index.xml'), '--out', join(dir, 'index.sarif'), ...common()]);
    report = JSON.parse(r.stdout) as Report;
  });

  it('exits 1 and lists each broken link with the page that holds it', () => {
    assert.equal(r.code, 1, r.stderr);
    const broken = Object.fromEntries(report.interesting.broken.map((b) => [b.check.url, report.checks[b.check.url]!.detail]));
    const silent = `http://side.test:${sidePort}/silent.html`;
    assert.deepEqual(broken, {
      [u('/docs/gone.html')]: 'HTTP 410', [u('/docs/missing.html')]: 'HTTP 404', [u('/docs/error.html')]: 'HTTP 500', 'http://refused.test:1/x.html': report.checks['http://refused.test:1/x.html']!.detail,
      [silent]: 'timeout',
    });
    assert.match(report.checks['http://refused.test:1/x.html']!.detail!, /^unreachable: .*refused/);
    assert.deepEqual(report.interesting.broken[0]!.from, [u('/docs/index.html')]);
  });

  it('reports moved documents with where they went, through a chain of redirects', () => {
    assert.equal(report.checks[u('/docs/moved')]!.movedTo, u('/docs/b.html'));
    assert.equal(report.checks[u('/docs/chain1')]!.movedTo, u('/docs/a.html'));
    assert.equal(report.checks[u('/docs/perm')]!.movedTo, u('/docs/b.html'), 'a 308 too');
    assert.deepEqual(report.interesting.moved.map((m) => m.url).sort(), [u('/docs/chain1'), u('/docs/moved'), u('/docs/perm')]);
  });

  it('tells recently modified and soon expiring documents, by the dates their servers sent', () => {
    assert.deepEqual(report.interesting.modified.map((m) => m.url), [u('/docs/a.html')]);
    assert.deepEqual(report.interesting.expiring.map((m) => m.url), [u('/docs/b.html')], 'the moved link to b.html is reported as moved, b.html itself as expiring');
  });

  it('tests leaves with HEAD and walks no further; GET only where HEAD is refused', () => {
    assert.equal(report.checks[u('/outside.html')]!.method, 'HEAD');
    assert.equal(web.count(HOST, '/never.html'), 0, 'a leaf\'s links are not followed');
    assert.deepEqual(sideLog.filter((l) => !l.includes('robots')).sort(), ['GET /nohead.html', 'HEAD /leaf.html', 'HEAD /nohead.html', 'HEAD /silent.html']);
    assert.equal(report.checks[u('/docs/a.html')]!.method, 'GET');
    assert.equal(web.count(HOST, '/docs/a.html'), 2, 'linked twice, tested once; asked once more at the end of the redirect chain');
  });

  it('lists each document\'s references with their kind and repeats', () => {
    const top = report.docs.find((d) => d.url === u('/docs/index.html'))!;
    assert.deepEqual(top.refs.find((x) => x.url === u('/docs/a.html')), { url: u('/docs/a.html'), kind: 'get', count: 2 });
  });

  it('writes the HTML index (escaped, with the closing table), JUnit XML and SARIF', () => {
    const page = readFileSync(join(dir, 'index.html'), 'utf8');
    assert.ok(page.includes('Docs &lt;b&gt;'));
    assert.doesNotMatch(page, /<b>/);
    assert.match(page, /Interesting changes/);
    assert.match(page, /Broken \(5\)/);
    const junit = readFileSync(join(dir, 'index.xml'), 'utf8');
    assert.match(junit, /<testsuites name="anwc maintain" tests="\d+" failures="5">/);
    assert.equal((junit.match(/<failure /g) ?? []).length, 5);
    const sarif = JSON.parse(readFileSync(join(dir, 'index.sarif'), 'utf8')) as { version: string; runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.equal(sarif.version, '2.1.0');
    const broken = sarif.runs[0]!.results.filter((x) => x.ruleId === 'broken-link');
    assert.equal(broken.length, 5);
    assert.ok(broken.every((x) => x.locations[0]!.physicalLocation.artifactLocation.uri === u('/docs/index.html')));
  });

  it('keeps the previous HTML index beside the new one, and tells what changed since the last run', async () => {
    assert.match(r.stderr, /no earlier run to compare with/);
    web.page(HOST, '/docs/missing.html', html('Found', []));
    const again = await anwc(['maintain', '--tree', u('/docs/index.html'), '--out', join(dir, 'index.html'), '--out', join(dir, 'index.md'), ...common()]);
    web.page(HOST, '/docs/missing.html', 'missing again', { status: 404 });
    assert.equal(again.code, 1, again.stderr);
    assert.ok(existsSync(join(dir, 'index.prev.html')));
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    assert.match(index, /href="index\.prev\.html"/);
    const since = again.stdout.split('\n').filter((l) => l.startsWith('since-last\t'));
    assert.deepEqual(since, [`since-last\t${u('/docs/missing.html')}\tbroken\tok`]);
    assert.match(again.stderr, /1 change\(s\) since the last run/);
    assert.match(index, /Changed since the last run/);
    // One line a link on stdout: the pages that hold it counted, the full list in --json.
    const broken = again.stdout.split('\n').filter((l) => l.startsWith('broken\t'));
    assert.equal(broken.length, 4, again.stdout);
    for (const line of broken) assert.match(line.split('\t')[3]!, /^on (?:http:\/\/\S+|\d+ pages, e\.g\. http:\/\/\S+)$/);
    assert.match(readFileSync(join(dir, 'index.md'), 'utf8'), /^## broken \(4\)$/m);
  });
});

describe('anwc maintain --owner', () => {
  it('walks the documents whose Owner is the task\'s name; another owner\'s document is a leaf', async () => {
    const r = await anwc(['maintain', '--owner', web.url(HOST, '/people/ann.html'), '--name', 'Ann', '--json', ...common()]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as Report;
    assert.deepEqual(report.docs.map((d) => new URL(d.url).pathname).sort(), ['/people/ann.html', '/people/ann2.html']);
    assert.equal(report.checks[web.url(HOST, '/people/bob.html')]!.state, 'ok');
    assert.equal(web.count(HOST, '/people/bob2.html'), 0);
  });

  it('refuses a task it cannot run, in one line and exit 2', async () => {
    for (const args of [['--owner', web.url(HOST, '/')], ['--tree', 'not a url'], [], ['--tree', web.url(HOST, '/'), '--site', web.url(HOST, '/')], ['--tree', web.url(HOST, '/'), '--out', join(dir, 'x.pdf')]]) {
      const r = await anwc(['maintain', ...args, ...common()]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});
