import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseHtml } from 'node-html-parser';
import { WARCParser } from 'warcio';
import { normalizeUrl } from '../../src/web/url.js';
import { anwc } from '../support/cli.js';
import { needsShared } from '../support/shared.js';
import { startTestWeb, type TestWeb } from '../support/testweb.js';

/**
 * `anwc archive` as a user runs it: a small site with hostile paths walked into a folder that
 * must browse offline (checked by a link checker of the test's own), never write outside the
 * folder, and carry a WARC that reads back with warcio; then a refresh that finds what changed.
 */

const HOST = 'arch.test';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3, 0, 255]);
const LONG = `/${'n'.repeat(300)}.html`;

let web: TestWeb;
let tmp: string;
const html = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
/** The path the client sends for a link (the server's key for it). */
const sent = (path: string) => {
  const n = normalizeUrl(`http://${HOST}${path}`);
  assert.ok(n.ok);
  const u = new URL(n.url);
  return u.pathname + u.search;
};
const page = (path: string, body: string, etag: string) => web.page(HOST, sent(path), body, { headers: { etag } });
const common = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', HOST];

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

function table(dir: string): { url: string; file: string; sha256: string; html: boolean }[] {
  return readFileSync(join(dir, '.anwc', 'headers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

/**
 * A link checker of the test's own over the copy: every relative href/src of every archived HTML
 * file must name a file of the copy; an absolute http(s) one must not be a URL the copy holds.
 */
function checkOffline(dir: string): { checked: number; broken: string[]; absoluteToArchived: string[] } {
  const archived = new Set(table(dir).map((e) => e.url));
  const broken: string[] = [];
  const absoluteToArchived: string[] = [];
  let checked = 0;
  for (const file of filesUnder(dir)) {
    if (file.includes(`${sep}.anwc${sep}`) || !/\.(?:x?html?)$/.test(file)) continue;
    const doc = parseHtml(readFileSync(file, 'utf8'));
    for (const el of doc.querySelectorAll('[href], [src]')) {
      const ref = el.getAttribute('href') ?? el.getAttribute('src') ?? '';
      if (ref === '' || ref.startsWith('#') || /^(?:mailto|javascript|data):/i.test(ref)) continue;
      if (/^https?:/i.test(ref)) {
        const n = normalizeUrl(ref.split('#')[0]!);
        if (n.ok && archived.has(n.url)) absoluteToArchived.push(`${relative(dir, file)}: ${ref}`);
        continue;
      }
      checked++;
      const target = resolve(dirname(file), decodeURIComponent(ref.split('#')[0]!.split('?')[0]!));
      if (!existsSync(target)) broken.push(`${relative(dir, file)}: ${ref}`);
    }
  }
  return { checked, broken, absoluteToArchived };
}

async function warcRecords(file: string): Promise<{ type: string; uri: string; status?: number; concurrentTo?: string; id: string; payload: Buffer }[]> {
  const out = [];
  for await (const r of new WARCParser(createReadStream(file))) {
    const payload = Buffer.from(await r.readFully(true));
    const status = r.warcType === 'response' && r.httpHeaders ? Number(r.httpHeaders.statusCode) : undefined;
    out.push({ type: r.warcType ?? '', uri: r.warcTargetURI ?? '', status, concurrentTo: r.warcHeader('WARC-Concurrent-To') ?? undefined, id: r.warcHeader('WARC-Record-ID') ?? '', payload });
  }
  return out;
}

/** The CLI warcio ships, next to its library: an independent reader of the WARC. */
const WARCIO_CLI = join(dirname(fileURLToPath(import.meta.resolve('warcio'))), 'cli.js');

interface Indexed { 'warc-type': string; 'warc-target-uri'?: string; 'http:status'?: number; 'warc-profile'?: string; 'warc-refers-to-target-uri'?: string; 'warc-refers-to-date'?: string; 'warc-date'?: string }

/** The WARC's records as warcio's own `index` command lists them. */
function warcioIndex(file: string): Indexed[] {
  const fields = 'warc-type,warc-target-uri,http:status,warc-date,warc-profile,warc-refers-to-target-uri,warc-refers-to-date';
  const out = execFileSync(process.execPath, [WARCIO_CLI, 'index', file, '--fields', fields], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => JSON.parse(l) as Indexed);
}

before(async () => {
  web = await startTestWeb();
  tmp = mkdtempSync(join(tmpdir(), 'anwc-archive-'));
  const other = web.url('other.test', '/x.html');
  page('/', html('Home', `<img src="/img/logo.png" alt=""><a href="/docs/">docs</a> <a href="/based.html">based</a> <a href="/Case.html">C</a> <a href="/case.html">c</a>
    <a href="/thing">thing</a> <a href="/thing/inner.html">inner</a> <a href="/s?q=1">search</a> <a href="/..%2f..%2fescape.html">esc</a>
    <a href="/%2e%2e/%2e%2e/escape2.html">esc2</a> <a href="${LONG}">long</a> <a href="${other}">elsewhere</a> <a href="/missing.html">missing</a>`), '"h1"');
  page('/docs/', html('Docs', '<a href="a.html">a</a> <a href="../">up</a>'), '"d1"');
  page('/docs/a.html', html('A', '<img src="/img/deep.png" alt=""><a href="deep.html">deeper</a>'), '"a1"');
  page('/docs/deep.html', html('Deep', ''), '"deep"');
  page('/based.html', html('Based', '<a href="a.html#part">a in docs</a>').replace('<head>', '<head><base href="/docs/">'), '"b1"');
  page('/Case.html', html('Upper', ''), '"C1"');
  page('/case.html', html('lower', ''), '"c1"');
  web.page(HOST, '/thing', PNG, { headers: { 'content-type': 'image/png', etag: '"t1"' } });
  page('/thing/inner.html', html('Inner', '<a href="/thing">up</a>'), '"i1"');
  page('/s?q=1', html('Search', ''), '"s1"');
  page('/..%2f..%2fescape.html', html('Escape', ''), '"e1"');
  page('/escape2.html', html('Escape2', ''), '"e2"');
  page(LONG, html('Long', ''), '"l1"');
  web.page(HOST, '/img/logo.png', PNG, { headers: { 'content-type': 'image/png', etag: '"p1"' } });
  web.page(HOST, '/img/deep.png', PNG, { headers: { 'content-type': 'image/png', etag: '"p2"' } });
});
after(async () => {
  await web.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('anwc archive', () => {
  let dir: string;
  before(async () => {
    dir = join(tmp, 'copy');
    const r = await anwc(['archive', web.url(HOST, '/'), '--out', dir, '--depth', '2', ...common()]);
    assert.equal(r.code, 0, r.stderr);
  });

  it('walks to --depth, and one level further only for what an archived page needs to display', () => {
    assert.equal(web.count(HOST, '/docs/a.html'), 1);
    assert.equal(web.count(HOST, '/docs/deep.html'), 0, 'a link past the depth is not followed');
    assert.equal(web.count(HOST, '/img/deep.png'), 1, 'the image of a page at the last level is fetched');
    assert.equal(web.count('other.test'), 0, '--hosts keeps the walk at home');
  });

  it('writes nothing outside the folder, whatever the URLs spell', () => {
    assert.deepEqual(readdirSync(tmp), ['copy']);
    for (const f of filesUnder(dir)) assert.ok(resolve(f).startsWith(resolve(dir) + sep), f);
    const entries = table(dir);
    const escape = entries.find((e) => e.url.includes('escape.html') && !e.url.endsWith('/escape.html'));
    assert.ok(escape, 'the ..%2f page is archived');
    assert.ok(existsSync(join(dir, escape.file)));
    for (const e of entries) for (const seg of e.file.split('/')) assert.ok(Buffer.byteLength(seg) <= 255 && seg !== '..', e.file);
  });

  it('keeps pages apart that differ only in case, and a file where a folder must go', () => {
    const entries = table(dir);
    const upper = entries.find((e) => e.url.endsWith('/Case.html'))!;
    const lower = entries.find((e) => e.url.endsWith('/case.html'))!;
    assert.notEqual(upper.file.toLowerCase(), lower.file.toLowerCase());
    assert.match(readFileSync(join(dir, upper.file), 'utf8'), /Upper/);
    assert.match(readFileSync(join(dir, lower.file), 'utf8'), /lower/);
    const thing = entries.find((e) => e.url.endsWith('/thing'))!;
    assert.deepEqual(readFileSync(join(dir, thing.file)), PNG, 'binary bodies are kept byte for byte');
    assert.ok(existsSync(join(dir, entries.find((e) => e.url.endsWith('/thing/inner.html'))!.file)));
  });

  it('browses offline: every relative reference names a file of the copy, and none points back to an archived URL', () => {
    const { checked, broken, absoluteToArchived } = checkOffline(dir);
    assert.ok(checked >= 15, `only ${checked} relative references checked`);
    assert.deepEqual(broken, []);
    assert.deepEqual(absoluteToArchived, []);
    const home = readFileSync(join(dir, table(dir).find((e) => new URL(e.url).pathname === '/')!.file), 'utf8');
    assert.ok(home.includes(`href="${web.url('other.test', '/x.html')}"`), 'a link to another host stays absolute');
    assert.ok(home.includes(`href="${web.url(HOST, '/missing.html')}"`), 'a link to a page without a copy becomes absolute');
    assert.match(home, /href="docs\/index\.html"/, 'a directory URL leads to its index file');
    const based = readFileSync(join(dir, table(dir).find((e) => e.url.endsWith('/based.html'))!.file), 'utf8');
    assert.doesNotMatch(based, /<base/);
    assert.match(based, /href="docs\/a\.html#part"/, '<base> was resolved before it was taken out');
  });

  it('writes a WARC 1.1 that warcio reads back: one response per archived URL and per error answer, each with its request, and a CDXJ line each', async () => {
    const records = await warcRecords(join(dir, 'anwc.warc.gz'));
    assert.equal(records[0]?.type, 'warcinfo');
    const responses = records.filter((r) => r.type === 'response');
    const urls = table(dir).map((e) => e.url).sort();
    assert.deepEqual(responses.filter((r) => r.status === 200).map((r) => r.uri).sort(), urls);
    assert.deepEqual(responses.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.uri}`), [`404 ${web.url(HOST, '/missing.html')}`]);
    const ids = new Set(responses.map((r) => r.id));
    const requests = records.filter((r) => r.type === 'request');
    assert.equal(requests.length, responses.length);
    for (const q of requests) assert.ok(q.concurrentTo && ids.has(q.concurrentTo), `request for ${q.uri} names its response`);
    const logo = responses.find((r) => r.uri.endsWith('/img/logo.png'))!;
    assert.deepEqual(logo.payload, PNG);
    const cdxj = readFileSync(join(dir, 'anwc.cdxj'), 'utf8').trim().split('\n');
    assert.equal(cdxj.length, responses.length);
    assert.deepEqual(cdxj.map((l) => JSON.parse(l.slice(l.indexOf('{'))).url).sort(), responses.map((r) => r.uri).sort());
  });

  it('a second run resumes from the archive\'s own state and fetches nothing again', async () => {
    const pages = () => web.count(HOST) - web.count(HOST, '/robots.txt');
    const before = pages();
    const r = await anwc(['archive', web.url(HOST, '/'), '--out', dir, '--depth', '2', ...common()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /known from before/);
    assert.equal(pages(), before);
  });

  it('--refresh asks again with the stored validators and says what changed, went away, or stayed', async () => {
    page('/docs/a.html', html('A changed', '<a href="deep.html">deeper</a>'), '"a2"');
    web.page(HOST, sent('/case.html'), 'gone', { status: 404, headers: { 'content-type': 'text/plain' } });
    const r = await anwc(['archive', '--refresh', dir, ...common()]);
    assert.equal(r.code, 1, `a copy that is gone is a problem found: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.includes(`changed\t${web.url(HOST, '/docs/a.html')}`), r.stdout);
    assert.ok(lines.includes(`gone\t${web.url(HOST, '/case.html')}\tHTTP 404`), r.stdout);
    assert.equal(lines.length, 2, `only the two changes are listed: ${r.stdout}`);
    assert.equal(web.lastHeaders(HOST, '/docs/')?.['if-none-match'], '"d1"', 'the stored ETag is sent');
    const a = table(dir).find((e) => e.url.endsWith('/docs/a.html'))!;
    assert.match(readFileSync(join(dir, a.file), 'utf8'), /A changed/);
    assert.deepEqual(checkOffline(dir).broken, []);
    const responses = (await warcRecords(join(dir, 'anwc.warc.gz'))).filter((x) => x.type === 'response' && x.uri.endsWith('/docs/a.html'));
    assert.equal(responses.length, 2, 'the WARC keeps the old capture and adds the new one');
  });
});

describe('anwc archive: every answer in the WARC (never a false green)', () => {
  const H = 'answers.test';
  const at = (path: string) => web.url(H, path);
  const args = () => ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', H, '--max-retries', '0'];
  const home = html('Home', '<a href="/index.html">home again</a> <a href="/dir/index.html">dir</a> <a href="/missing.html">missing</a> <a href="/broken.html">broken</a> <a href="/old.html">old</a>');
  let dir: string;

  before(async () => {
    web.page(H, '/', home, { headers: { etag: '"home"' } });
    // The server gives its root under both names, as most do.
    web.page(H, '/index.html', home, { headers: { etag: '"home"' } });
    // At the last level: its links are not followed, so /dir/ itself is never fetched.
    web.page(H, '/dir/index.html', html('Dir', '<a href="/dir/">this dir</a> <a href="/index.html">home</a> <a href="/">root</a>'), { headers: { etag: '"dir"' } });
    web.page(H, '/missing.html', '<p>no such page</p>', { status: 404 });
    web.page(H, '/broken.html', 'server trouble', { status: 500, headers: { 'content-type': 'text/plain' } });
    web.page(H, '/old.html', 'moved', { status: 301, headers: { location: '/new.html', 'content-type': 'text/plain' } });
    web.page(H, '/new.html', html('New', ''), { headers: { etag: '"new"' } });
    dir = join(tmp, 'answers');
    const r = await anwc(['archive', at('/'), '--out', dir, '--depth', '1', ...args()]);
    assert.equal(r.code, 0, r.stderr);
  });

  it('records 4xx, 5xx and redirect answers as response records with their requests, as wget and Heritrix do', async () => {
    const index = warcioIndex(join(dir, 'anwc.warc.gz'));
    const responses = index.filter((r) => r['warc-type'] === 'response').map((r) => `${r['http:status']} ${r['warc-target-uri']}`).sort();
    assert.deepEqual(responses, [
      `200 ${at('/')}`, `200 ${at('/dir/index.html')}`, `200 ${at('/index.html')}`, `200 ${at('/new.html')}`,
      `301 ${at('/old.html')}`, `404 ${at('/missing.html')}`, `500 ${at('/broken.html')}`,
    ].sort());
    const requests = index.filter((r) => r['warc-type'] === 'request').map((r) => r['warc-target-uri']).sort();
    assert.deepEqual(requests, index.filter((r) => r['warc-type'] === 'response').map((r) => r['warc-target-uri']).sort(), 'each answer has its request');
    const records = await warcRecords(join(dir, 'anwc.warc.gz'));
    const missing = records.find((x) => x.type === 'response' && x.uri === at('/missing.html'))!;
    assert.match(missing.payload.toString('utf8'), /no such page/, 'the body of an error answer is kept as received');
    const cdxj = readFileSync(join(dir, 'anwc.cdxj'), 'utf8').trim().split('\n').map((l) => JSON.parse(l.slice(l.indexOf('{'))) as { url: string; status: string });
    assert.deepEqual(cdxj.map((c) => `${c.status} ${c.url}`).sort(), responses, 'the index lists every answer with its status');
  });

  it('gives / and /index.html one copy, and links to either (or to dir/ for dir/index.html) lead to it', () => {
    const entries = table(dir);
    const root = entries.find((e) => e.url === at('/'))!;
    const again = entries.find((e) => e.url === at('/index.html'))!;
    assert.equal(again.file, root.file, '/index.html is the same page as / and has the same copy');
    assert.deepEqual(readdirSync(join(dir, dirname(root.file))).filter((f) => f.startsWith('index')), ['index.html']);
    const copy = readFileSync(join(dir, entries.find((e) => e.url === at('/dir/index.html'))!.file), 'utf8');
    assert.match(copy, /href="index\.html">this dir</, 'dir/ leads to the copy of dir/index.html');
    assert.match(copy, /href="\.\.\/index\.html">home</, '/index.html leads to the copy of the root');
    assert.match(copy, /href="\.\.\/index\.html">root</);
    assert.deepEqual(checkOffline(dir).broken, []);
    assert.match(readFileSync(join(dir, root.file), 'utf8'), new RegExp(`href="${at('/missing.html')}"`), 'an error answer has no copy: its link stays absolute');
  });

  it('--refresh records an unchanged page as a revisit of its earlier capture, and exits 1 when a copy is gone', async () => {
    const earlier = new Map(warcioIndex(join(dir, 'anwc.warc.gz')).filter((r) => r['warc-type'] === 'response').map((r) => [r['warc-target-uri'], r['warc-date']]));
    web.page(H, '/new.html', html('New again', ''), { headers: { etag: '"new2"' } });
    web.page(H, '/dir/index.html', 'gone', { status: 410, headers: { 'content-type': 'text/plain' } });
    const r = await anwc(['archive', '--refresh', dir, ...args()]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^anwc: 1 copy is gone .*$/m, r.stderr);
    assert.equal(r.stdout.trim().split('\n').sort().join('\n'), [`changed\t${at('/old.html')}`, `gone\t${at('/dir/index.html')}\tHTTP 410`].sort().join('\n'));
    const index = warcioIndex(join(dir, 'anwc.warc.gz'));
    const revisits = index.filter((x) => x['warc-type'] === 'revisit');
    assert.deepEqual(revisits.map((x) => `${x['http:status']} ${x['warc-target-uri']}`).sort(), [`304 ${at('/')}`, `304 ${at('/index.html')}`]);
    for (const v of revisits) {
      assert.equal(v['warc-profile'], 'http://netpreserve.org/warc/1.1/revisit/server-not-modified');
      assert.equal(v['warc-refers-to-target-uri'], v['warc-target-uri']);
      assert.equal(v['warc-refers-to-date'], earlier.get(v['warc-target-uri']), 'the revisit names the capture it repeats');
    }
    const added = index.slice(index.length - 10).filter((x) => x['warc-type'] === 'response').map((x) => `${x['http:status']} ${x['warc-target-uri']}`);
    assert.ok(added.includes(`410 ${at('/dir/index.html')}`), `the gone answer is recorded: ${added.join(', ')}`);
    assert.ok(added.includes(`200 ${at('/new.html')}`), 'the changed page is recorded whole');
  });
});

describe('anwc archive --refresh without the run\'s address settings', () => {
  it('exits 1 and says how many copies could not be checked and which flags the archive run had', async () => {
    web.page('127.0.0.1', '/', html('Loopback', '<a href="/two.html">two</a>'), { headers: { etag: '"l1"' } });
    web.page('127.0.0.1', '/two.html', html('Two', ''), { headers: { etag: '"l2"' } });
    const dir = join(tmp, 'loopback');
    const base = ['--delay', '0', '--progress', 'none', '--hosts', '127.0.0.1'];
    const made = await anwc(['archive', `http://127.0.0.1:${web.port}/`, '--out', dir, '--allow-private', ...base]);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(table(dir).length, 2);
    const r = await anwc(['archive', '--refresh', dir, ...base]);
    assert.equal(r.code, 1, r.stderr);
    const line = r.stderr.split('\n').filter((l) => /could not be checked/.test(l));
    assert.equal(line.length, 1, r.stderr);
    assert.match(line[0]!, /2 copies could not be checked/);
    assert.match(line[0]!, /--resolve.*--allow-private|--allow-private.*--resolve/);
  });
});

describe('anwc archive --refresh of a site whose robots.txt does not answer', () => {
  it('says the copies were not checked because robots.txt could not be had, not that robots.txt disallows them', async () => {
    const host = 'down-robots.test';
    web.page(host, '/', html('Home', '<a href="/two.html">two</a>'), { headers: { etag: '"d1"' } });
    web.page(host, '/two.html', html('Two', ''), { headers: { etag: '"d2"' } });
    const dir = join(tmp, 'down-robots');
    const base = ['--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', host];
    const made = await anwc(['archive', web.url(host, '/'), '--out', dir, ...base]);
    assert.equal(made.code, 0, made.stderr);
    web.page(host, '/robots.txt', 'down', { status: 503, headers: { 'content-type': 'text/plain' } });
    const r = await anwc(['archive', '--refresh', dir, '--max-retries', '0', ...base]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^anwc: 2 copies could not be checked: 2 robots\.txt could not be had/m);
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /disallowed by robots|^disallowed/m);
    assert.equal(r.stdout.trim().split('\n').filter((l) => /^not checked\t.*\trobots\.txt unreachable \(HTTP 503\)/.test(l)).length, 2, r.stdout);
  });
});

describe('anwc archive: bad input', () => {
  it('refuses a folder of other files, a refresh of what is not an archive, and a missing folder, in one line', async () => {
    const busy = join(tmp, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'mine.txt'), 'keep me');
    for (const args of [
      ['archive', web.url(HOST, '/'), '--out', busy],
      ['archive', '--refresh', busy],
      ['archive', web.url(HOST, '/')],
      ['archive', web.url(HOST, '/'), '--refresh', busy],
      ['archive', web.url(HOST, '/'), '--out', join(tmp, 'x'), '--content-type', 'html'],
    ]) {
      const r = await anwc([...args, ...common()]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    assert.equal(readFileSync(join(busy, 'mine.txt'), 'utf8'), 'keep me');
  });

  it('refuses a header table that names a place outside the archive', async () => {
    const bad = join(tmp, 'bad');
    mkdirSync(join(bad, '.anwc'), { recursive: true });
    writeFileSync(join(bad, '.anwc', 'headers.jsonl'), `${JSON.stringify({ url: 'http://arch.test/x', file: '../../outside.html', sha256: 'x', html: true })}\n`);
    const r = await anwc(['archive', '--refresh', bad, ...common()]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /outside the archive/);
    assert.equal(existsSync(join(tmp, 'outside.html')), false);
  });
});

describe('anwc archive: the corpus', { skip: needsShared('corpus') }, () => {
  it('copies a book of the corpus so that it browses offline, with one WARC 200 response per file', async () => {
    const dir = join(tmp, 'book');
    const r = await anwc(['archive', web.url('timemachine.test', '/toc.xhtml'), '--out', dir, '--depth', '1', '--resolve', '*.test:127.0.0.1', '--delay', '0', '--progress', 'none', '--hosts', 'timemachine.test']);
    assert.equal(r.code, 0, r.stderr);
    const entries = table(dir);
    assert.ok(entries.filter((e) => e.html).length >= 10, `${entries.length} files`);
    const { checked, broken, absoluteToArchived } = checkOffline(dir);
    assert.ok(checked > 20);
    assert.deepEqual(broken, []);
    assert.deepEqual(absoluteToArchived, []);
    const responses = (await warcRecords(join(dir, 'anwc.warc.gz'))).filter((x) => x.type === 'response' && x.status === 200);
    assert.equal(responses.length, entries.length);
    // An XHTML copy stays well-formed: only attribute values were touched.
    const chapter = entries.find((e) => e.url.endsWith('/text/chapter-1.xhtml'))!;
    const copy = readFileSync(join(dir, chapter.file), 'utf8');
    assert.match(copy, /^<\?xml version="1\.0" encoding="utf-8"\?>/);
  });
});
