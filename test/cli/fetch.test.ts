import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestWeb, type TestWeb } from '../support/testweb.js';
import { needsShared } from '../support/shared.js';

/** Tests that read ../shared; a bare clone skips them with one line each. */
const SHARED = needsShared('corpus');

// Runs the built CLI as a user would (`npm test` compiles to dist/ first). The test web lives in
// this process, so the child is awaited asynchronously: a blocking spawn would starve the server.
const MAIN = resolve(process.cwd(), 'dist', 'src', 'cli', 'main.js');

let web: TestWeb;
before(async () => {
  web = await startTestWeb();
});
after(async () => {
  await web.close();
});

function anwc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [MAIN, 'fetch', ...args, '--resolve', '*.test:127.0.0.1'],
      { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ANWC_DEBUG: '' } },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('a page: status, robots decision, type, charset with its source, bytes, timing, headers; exit 0', { skip: SHARED }, async () => {
  const r = await anwc(web.url('sherlock.test', '/toc.xhtml'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^robots {5}allowed: robots\.txt unavailable \(HTTP 404\): all allowed/m);
  assert.match(r.stdout, /^status {5}200$/m);
  assert.match(r.stdout, new RegExp(`^final {6}http://sherlock\\.test:${web.port}/toc\\.xhtml$`, 'm'));
  assert.match(r.stdout, /^type {7}application\/xhtml\+xml$/m);
  assert.match(r.stdout, /^charset {4}UTF-8 \(from sniff\)$/m);
  assert.match(r.stdout, /^bytes {6}\d+$/m);
  assert.match(r.stdout, /^timing {5}headers [\d.]+ ms, total [\d.]+ ms$/m);
  assert.match(r.stdout, /^ {2}etag: "/m);
});

test('--json gives one object with the outcome and the robots decision, no body', { skip: SHARED }, async () => {
  const r = await anwc(web.url('timemachine.test', '/toc.xhtml'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.outcome.kind, 'ok');
  assert.equal(report.outcome.status, 200);
  assert.equal(report.outcome.body, undefined);
  assert.equal(report.outcome.text, undefined);
  assert.equal(report.robots.allowed, true);
  assert.equal(report.userAgent, 'anwc/0.1 (+https://github.com/anwc/anwc)');
});

test('--head sends HEAD; --user-agent, --contact and --from reach the server', { skip: SHARED }, async () => {
  const r = await anwc(web.url('chickens.test', '/toc.xhtml'), '--head', '--json', '--user-agent', 'narrbot/2.0', '--contact', 'mailto:ops@example.org', '--from', 'ops@example.org');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.outcome.method, 'HEAD');
  assert.equal(report.outcome.bytes, 0);
  const h = web.lastHeaders('chickens.test', '/toc.xhtml')!;
  assert.equal(h['user-agent'], 'narrbot/2.0 (+mailto:ops@example.org)');
  assert.equal(h.from, 'ops@example.org');
});

test('the redirect chain is printed hop by hop', async () => {
  web.page('alpha.test', '/old', 'moved', { status: 301, headers: { location: '/new' } });
  web.page('alpha.test', '/new', '<p>here</p>');
  const r = await anwc(web.url('alpha.test', '/old'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^redirect {3}301 http://alpha\\.test:${web.port}/old$`, 'm'));
  assert.match(r.stdout, new RegExp(`^final {6}http://alpha\\.test:${web.port}/new$`, 'm'));
});

test('a URL robots.txt disallows is not fetched: the matching rule is shown, exit 1', { skip: SHARED }, async () => {
  const r = await anwc(web.url('diveintopython.test', '/d/secret.html'));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^robots {5}DISALLOWED: disallow: \/d\/ at line 3/m);
  assert.equal(web.count('diveintopython.test', '/d/secret.html'), 0);
});

test('a URL whose robots.txt does not answer is not fetched, and is not said to be disallowed by a rule; exit 1', async () => {
  web.page('busy-robots.test', '/robots.txt', 'not now', { status: 429, headers: { 'retry-after': '1' } });
  web.page('busy-robots.test', '/p.html', '<p>here</p>');
  const r = await anwc(web.url('busy-robots.test', '/p.html'));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^outcome {4}not fetched: robots\.txt could not be had; try again later$/m);
  assert.equal(web.count('busy-robots.test', '/p.html'), 0);
});

test('an HTTP error and a failure exit 1 with the status or the failure kind', { skip: SHARED }, async () => {
  const missing = await anwc(web.url('debian.test', '/missing.html'));
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /^status {5}404$/m);
  const binary = await anwc(web.url('binary-as-html.test', '/'));
  assert.equal(binary.code, 1);
  assert.match(binary.stdout, /^failed {5}bad-content-type: declared text\/html but the body is binary$/m);
});

test('a bad URL or a bad --resolve exits 2 with one line', async () => {
  const ftp = await anwc('ftp://alpha.test/x');
  assert.equal(ftp.code, 2);
  assert.match(ftp.stderr, /^anwc: not a URL anwc can fetch: scheme ftp is not http or https/);
  const bad = await anwc(web.url('alpha.test', '/'), '--resolve', 'alpha.test');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^anwc: --resolve is not valid .*; "alpha\.test" is not HOST:ADDR; write e\.g\. alpha\.test:127\.0\.0\.1/);
});

test('a --config file\'s resolve mappings reach the fetcher as the flag\'s do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-config-resolve-'));
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const config = join(dir, 'c.json');
    writeFileSync(config, JSON.stringify({ resolve: ['config.test:127.0.0.1'] }));
    const port = (server.address() as { port: number }).port;
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => execFile(
      process.execPath, [MAIN, 'fetch', `http://config.test:${port}/`, '--config', config],
      { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ANWC_DEBUG: '' } },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^status {5}200$/m);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
