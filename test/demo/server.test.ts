import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultSitesDir, packageRoot } from '../../src/demo/paths.js';
import { startDemoWeb, type DemoWeb } from '../../src/demo/server.js';
import { get } from './http.js';

const SITES = ['bargain-mart.demo', 'garden-almanac.demo', 'harbour-tales.demo', 'lighthouse-journal.demo', 'link-farm.demo', 'railway-letters.demo'];

describe('demo web server', () => {
  let web: DemoWeb;
  before(async () => {
    web = await startDemoWeb();
  });
  after(() => web.close());

  test('lists the six sites and builds their URLs and --resolve mappings', () => {
    assert.deepEqual(web.hosts, SITES);
    assert.ok(web.port > 0);
    assert.equal(web.url('harbour-tales.demo'), `http://harbour-tales.demo:${web.port}/`);
    assert.equal(web.url('harbour-tales.demo', '/about.html'), `http://harbour-tales.demo:${web.port}/about.html`);
    assert.equal(web.searchEndpoint, `http://search.demo:${web.port}/`);
    assert.ok(web.resolve.includes('search.demo:127.0.0.1'));
    assert.equal(web.resolve.length, SITES.length + 1);
  });

  test('serves each host its own home page as utf-8 HTML, by the Host header', async () => {
    for (const host of web.hosts) {
      const res = await get(web.port, host, '/');
      assert.equal(res.status, 200, host);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(res.body, /<meta charset="utf-8">/);
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
    }
    const a = await get(web.port, 'harbour-tales.demo', '/');
    const b = await get(web.port, 'lighthouse-journal.demo', '/');
    assert.match(a.body, /<title>Harbour Tales<\/title>/);
    assert.match(b.body, /<title>Lighthouse Journal<\/title>/);
  });

  test('the Host header is matched without port, case or trailing dot', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: web.port, path: '/', headers: { host: 'Harbour-Tales.DEMO.' }, agent: false }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    assert.equal(res, 200);
  });

  test('every host has a robots.txt; lighthouse-journal forbids /private/', async () => {
    for (const host of web.hosts) {
      const res = await get(web.port, host, '/robots.txt');
      assert.equal(res.status, 200, host);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
      assert.match(res.body, /^User-agent: \*$/m);
    }
    const lj = await get(web.port, 'lighthouse-journal.demo', '/robots.txt');
    assert.match(lj.body, /^Disallow: \/private\/$/m);
    const drafts = await get(web.port, 'lighthouse-journal.demo', '/private/drafts.html');
    assert.equal(drafts.status, 200, 'the server serves it; keeping out is the crawler’s duty');
  });

  test('content types follow the extension', async () => {
    const cases: [string, string, string][] = [
      ['harbour-tales.demo', '/style.css', 'text/css; charset=utf-8'],
      ['harbour-tales.demo', '/images/quay.svg', 'image/svg+xml'],
      ['harbour-tales.demo', '/sitemap.xml', 'application/xml; charset=utf-8'],
      ['harbour-tales.demo', '/stories/low-tide.html', 'text/html; charset=utf-8'],
    ];
    for (const [host, path, type] of cases) {
      const res = await get(web.port, host, path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], type, path);
    }
  });

  test('a folder serves its index.html, and without its slash redirects to it', async () => {
    const res = await get(web.port, 'harbour-tales.demo', '/stories/');
    assert.equal(res.status, 200);
    assert.match(res.body, /<h1>Stories<\/h1>/);
    const moved = await get(web.port, 'harbour-tales.demo', '/stories?x=1');
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, '/stories/?x=1');
  });

  test('a query string is ignored when choosing the file', async () => {
    const res = await get(web.port, 'bargain-mart.demo', '/lanterns.html?page=2');
    assert.equal(res.status, 200);
  });

  test('missing files and unknown hosts are 404', async () => {
    assert.equal((await get(web.port, 'harbour-tales.demo', '/no-such-page.html')).status, 404);
    assert.equal((await get(web.port, 'harbour-tales.demo', '/images/')).status, 404);
    const nf = await get(web.port, 'harbour-tales.demo', '/nope');
    assert.equal(nf.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal((await get(web.port, 'elsewhere.demo', '/')).status, 404);
    assert.equal((await get(web.port, 'example.org', '/')).status, 404);
  });

  test('path traversal is refused before any look-up', async () => {
    const attempts = [
      '/../../package.json',
      '/%2e%2e/%2e%2e/%2e%2e/package.json',
      '/..%2f..%2f..%2fpackage.json',
      '/stories/..%5c..%5c..%5cpackage.json',
      '/%2E%2E/harbour-tales.demo/index.html',
      '/%00/index.html',
      '/%zz',
      'package.json',
    ];
    for (const path of attempts) {
      const res = await get(web.port, 'harbour-tales.demo', path);
      assert.equal(res.status, 400, path);
      assert.doesNotMatch(res.body, /"devDependencies"/, path);
    }
  });

  test('HEAD answers headers only; other methods are 405', async () => {
    const head = await get(web.port, 'railway-letters.demo', '/', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.ok(Number(head.headers['content-length']) > 0);
    const post = await get(web.port, 'railway-letters.demo', '/', 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
  });
});

describe('startDemoWeb options', () => {
  test('root picks another sites folder; close() ends open keep-alive connections', async () => {
    const root = mkdtempSync(join(tmpdir(), 'anwc-demo-'));
    try {
      mkdirSync(join(root, 'one.demo'));
      writeFileSync(join(root, 'one.demo', 'index.html'), '<!DOCTYPE html><meta charset="utf-8"><title>One</title><h1>One</h1>');
      const web = await startDemoWeb({ root });
      assert.deepEqual(web.hosts, ['one.demo']);
      const res = await get(web.port, 'one.demo', '/');
      assert.match(res.body, /<h1>One<\/h1>/);
      // A keep-alive socket left open must not hold close() up.
      await fetch(`http://127.0.0.1:${web.port}/robots.txt`, { headers: { connection: 'keep-alive' } }).then((r) => r.text());
      await web.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('port picks the port', async () => {
    const probe = await startDemoWeb();
    const free = probe.port;
    await probe.close();
    const web = await startDemoWeb({ port: free });
    try {
      assert.equal(web.port, free);
    } finally {
      await web.close();
    }
  });

  test('demo/ is found from the package root, also from compiled code under dist/src/demo', () => {
    const root = packageRoot();
    assert.equal(defaultSitesDir(), join(root, 'demo', 'sites'));
    assert.equal(packageRoot(join(root, 'dist', 'src', 'demo')), root);
  });
});
