import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { references } from '../src/walk/references.js';
import { anwc as runAnwc } from '../test/support/cli.js';
import { sharedPath } from '../test/support/shared.js';
import { SITES, startTestWeb, type TestWeb } from '../test/support/testweb.js';

/**
 * Link maintenance on the corpus web: an owner's infostructure (a documentation site of our own,
 * DOCS pages on links.test) that references chapters of the five corpus books, with broken and
 * moved links injected. `anwc maintain --site` (MOMspider: GET for the pages of the
 * infostructure, HEAD for the leaves, each URL once) beside a GET-everything checker written here,
 * which does what lychee does by default (`--method get`: every link requested with GET, redirects
 * followed) and recurses through the same site as linkinator's `--recurse` does. Requests and bytes
 * are counted at the server, in the same run.
 */

const DOCS = 20;
const REFS_PER_PAGE = 8;
const HOST = 'links.test';

interface Tally {
  requests: number;
  bytes: number;
  links: number;
  broken: number;
  moved: number;
}

/** The corpus chapters the docs refer to, in a fixed order. */
function chapters(port: number): string[] {
  const out: string[] = [];
  for (const [host, site] of Object.entries(SITES)) {
    const root = sharedPath('corpus', site.dir);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.x?html$/.test(f)).sort();
    out.push(...files.map((f) => `http://${host}:${port}/${f.split('\\').join('/')}`));
  }
  return out;
}

/** The docs site: each page links its neighbours, REFS_PER_PAGE chapters, and one injected fault of four kinds in turn. */
function buildDocs(web: TestWeb): { broken: number; moved: number } {
  const refs = chapters(web.port);
  const page = (i: number) => `/docs/p${i}.html`;
  let broken = 0;
  let moved = 0;
  const top = ['<!DOCTYPE html><html><head><title>Docs</title></head><body><h1>Docs</h1><ul>',
    ...Array.from({ length: DOCS }, (_, i) => `<li><a href="${page(i)}">Part ${i}</a></li>`), '</ul></body></html>'].join('');
  web.page(HOST, '/docs/index.html', top);
  for (let i = 0; i < DOCS; i++) {
    const chosen = Array.from({ length: REFS_PER_PAGE }, (_, k) => refs[(i * 7 + k * 13) % refs.length]!);
    const faults = [
      `/docs/missing-${i}.html`, // 404: nothing there
      `http://${Object.keys(SITES)[i % 5]}:${web.port}/no-such-chapter-${i}.html`, // 404 on a corpus host
      `/docs/old-${i}.html`, // moved: 301 to the page
      `/docs/retired-${i}.html`, // 410
    ];
    const fault = faults[i % faults.length]!;
    if (fault.includes('old-')) {
      web.page(HOST, fault, '', { status: 301, headers: { location: page(i) } });
      moved++;
    } else {
      if (fault.includes('retired-')) web.page(HOST, fault, 'gone', { status: 410 });
      broken++;
    }
    const body = [
      `<!DOCTYPE html><html><head><title>Part ${i}</title></head><body><h1>Part ${i}</h1>`,
      '<p>Notes on the chapters below, kept by their owner and checked for links that broke.</p><ul>',
      ...[...chosen, fault, page((i + 1) % DOCS), '/docs/index.html'].map((u) => `<li><a href="${u}">${u}</a></li>`),
      '</ul></body></html>',
    ].join('');
    web.page(HOST, page(i), body);
  }
  return { broken, moved };
}

/** One GET through the test web, by name; the redirect is the caller's to follow. */
function get(web: TestWeb, url: string): Promise<{ status: number; location?: string; type: string; body: string }> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: web.port, path: u.pathname + u.search, headers: { host: u.host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** The GET-everything checker: breadth first through the top's host, every reference GET once, redirects followed (at most 5). */
async function getEverything(web: TestWeb, top: string): Promise<Omit<Tally, 'requests' | 'bytes'>> {
  const home = new URL(top).host;
  const seen = new Set([top]);
  const queue = [top];
  let broken = 0;
  let moved = 0;
  while (queue.length > 0) {
    const url = queue.shift()!;
    let at = url;
    let r = await get(web, at);
    for (let hop = 0; hop < 5 && r.status >= 300 && r.status < 400 && r.location; hop++) {
      at = new URL(r.location, at).href;
      r = await get(web, at);
    }
    if (at !== url) moved++;
    if (r.status >= 400) broken++;
    if (r.status === 200 && new URL(at).host === home && /html/.test(r.type)) {
      for (const ref of references(r.body, at)) {
        if (!/^https?:/.test(ref.url) || !new URL(ref.url).hostname.endsWith('.test') || seen.has(ref.url)) continue;
        seen.add(ref.url);
        queue.push(ref.url);
      }
    }
  }
  return { links: seen.size, broken, moved };
}

/** The CLI in a child process, not a blocking one: the test web answers from this process's event loop. */
async function anwcMaintain(web: TestWeb, top: string, dir: string): Promise<Omit<Tally, 'requests' | 'bytes'>> {
  const r = await runAnwc([
    'maintain', '--site', top, '--json', '--db', `sqlite:${join(dir, 'mom.sqlite')}`, '--resolve', ...web.resolve, '--hosts', '*.test',
    '--delay', '0', '--progress', 'none', '--max-retries', '0',
  ]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`anwc maintain failed (${r.code}): ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { checks: Record<string, { state: string }>; interesting: { broken: unknown[]; moved: unknown[] } };
  return { links: Object.keys(report.checks).length, broken: report.interesting.broken.length, moved: report.interesting.moved.length };
}

async function measure(web: TestWeb, run: () => Promise<Omit<Tally, 'requests' | 'bytes'>> | Omit<Tally, 'requests' | 'bytes'>): Promise<Tally> {
  const [requests, bytes] = [web.requests(), web.bytesOut()];
  const found = await run();
  return { ...found, requests: web.requests() - requests, bytes: web.bytesOut() - bytes };
}

export async function main(): Promise<string> {
  const web = await startTestWeb();
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-maintain-'));
  try {
    const injected = buildDocs(web);
    const top = web.url(HOST, '/docs/index.html');
    const baseline = await measure(web, () => getEverything(web, top));
    const anwc = await measure(web, () => anwcMaintain(web, top, dir));
    const kb = (n: number) => (n / 1024).toFixed(1);
    const row = (name: string, t: Tally) =>
      `| ${name} | ${t.links} | ${t.broken} of ${injected.broken} | ${t.moved} of ${injected.moved} | ${t.requests} | ${(t.requests / t.links).toFixed(2)} | ${kb(t.bytes)} | ${kb(t.bytes / t.links)} |`;
    return [
      `## ${DOCS + 1} pages of an owner's docs on ${HOST}, ${REFS_PER_PAGE} corpus chapters referenced a page, ${injected.broken} broken and ${injected.moved} moved links injected`,
      '',
      '| checker | links checked | broken found | moved found | requests | requests per link | KiB sent by the server | KiB per link |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      row('GET everything (lychee\'s default method, recursing like linkinator)', baseline),
      row('anwc maintain --site', anwc),
      '',
      `anwc beside the GET-everything checker: ${(anwc.requests / baseline.requests).toFixed(2)}× the requests, ${(anwc.bytes / baseline.bytes).toFixed(2)}× the bytes. ` +
        'anwc\'s requests include one robots.txt per host; its links checked count every reference it met, as the baseline\'s does.',
    ].join('\n');
  } finally {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
