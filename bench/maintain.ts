import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sharedPath } from '../test/support/shared.js';
import { SITES, startTestWeb, type TestWeb } from '../test/support/testweb.js';
import { anwcMaintain, getEverything, type Found } from './link-checkers.js';

/**
 * Link maintenance on the corpus web: an owner's infostructure (a documentation site of our own,
 * DOCS pages on links.test) that references chapters of the five corpus books, with broken and
 * moved links injected. `anwc maintain --site` (MOMspider: GET for the pages of the
 * infostructure, HEAD for the leaves, each URL once) beside the GET-everything checker of
 * link-checkers.ts, one request at a time. Requests and bytes are counted at the server, in the
 * same run. bench/linkcheck.ts does the same on generated webs of 200 and 2,000 pages.
 */

const DOCS = 20;
const REFS_PER_PAGE = 8;
const HOST = 'links.test';

interface Tally extends Found {
  requests: number;
  bytes: number;
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

async function measure(web: TestWeb, run: () => Promise<Found>): Promise<Tally> {
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
    const baseline = await measure(web, () => getEverything({ top, addressOf: () => '127.0.0.1', inScope: (u) => new URL(u).hostname.endsWith('.test'), concurrency: 1 }));
    const anwc = await measure(web, () => anwcMaintain({ top, db: `sqlite:${join(dir, 'mom.sqlite')}`, resolve: web.resolve, hosts: '*.test', extra: ['--max-retries', '0'] }));
    const kb = (n: number) => (n / 1024).toFixed(1);
    const row = (name: string, t: Tally) =>
      `| ${name} | ${t.links} | ${t.broken.length} of ${injected.broken} | ${t.moved.length} of ${injected.moved} | ${t.requests} | ${(t.requests / t.links).toFixed(2)} | ${kb(t.bytes)} | ${kb(t.bytes / t.links)} |`;
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
