import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { anwcMaintain, getEverything, type Found } from './link-checkers.js';
import { keyOf, linkWeb, OFF_HOSTS, score, SITE_HOST, type LinkWeb, type Score } from './link-web.js';
import { count, counts } from './knobs.js';

/**
 * Checking one's own site (issue: never a false green, "checking your own site fast"). On
 * generated webs of 200 and 2,000 pages (link-web.ts: broken and moved links on the site and off
 * it, images, PDFs, leaves that refuse HEAD, five other hosts on a second loopback address),
 * served by a child process: the GET-everything checker of link-checkers.ts, then `anwc maintain
 * --site --delay 0` as a user runs it, then the same with `--per-host 4` (what its progress line
 * offers for a site one owns). For each: what it found against the generated truth (recall of
 * broken and moved links, false alarms), requests and bytes counted at the server, wall time, and
 * the ratios to the baseline in the same run.
 *
 *   npm run bench -- linkcheck
 *
 * Knobs: BENCH_LINKCHECK_PAGES (200,2000), BENCH_LINKCHECK_CONCURRENCY (the baseline's requests in
 * flight; 4, anwc's --concurrency), BENCH_LINKCHECK_SEED (1).
 */

const SIZES = counts('BENCH_LINKCHECK_PAGES', '200,2000');
const CONCURRENCY = count('BENCH_LINKCHECK_CONCURRENCY', 4);
const SEED = count('BENCH_LINKCHECK_SEED', 1);

interface Hello {
  sitePort: number;
  offPort: number;
  offAddress: string;
}

interface Counters {
  requests: number;
  bytes: number;
}

/** The web's server, in this file run as a child: answers from the generated web, counts at the sockets. */
async function serve(seed: number, pages: number): Promise<void> {
  let web: LinkWeb | undefined;
  let requests = 0;
  let closedBytes = 0;
  const sockets = new Set<Socket>();
  const blobs = new Map<number, Buffer>();
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    requests++;
    const a = web?.answers.get(`${(req.headers.host ?? '').toLowerCase()}${req.url ?? '/'}`);
    if (!a) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('no such page');
    }
    if (a.noHead && req.method === 'HEAD') {
      res.writeHead(405, { allow: 'GET' });
      return void res.end();
    }
    let body: Buffer | undefined;
    if (a.bytes !== undefined) {
      body = blobs.get(a.bytes);
      if (!body) blobs.set(a.bytes, (body = Buffer.alloc(a.bytes, 0x5a)));
    } else if (a.html !== undefined) {
      body = Buffer.from(a.html, 'utf8');
    }
    res.writeHead(a.status, { ...(a.type ? { 'content-type': a.type } : {}), ...(a.location ? { location: a.location } : {}), 'content-length': body?.length ?? 0 });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const listen = (address: string): Promise<Server> => new Promise((ok, fail) => {
    const server = createServer(handler);
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => {
        closedBytes += s.bytesWritten;
        sockets.delete(s);
      });
    });
    server.once('error', fail);
    server.listen(0, address, () => ok(server));
  });
  const site = await listen('127.0.0.1');
  // 127.0.0.2 is loopback on Linux, not on macOS: there the other hosts share 127.0.0.1, on their own port.
  let offAddress = '127.0.0.2';
  const off = await listen(offAddress).catch(() => listen((offAddress = '127.0.0.1')));
  const hello: Hello = { sitePort: (site.address() as { port: number }).port, offPort: (off.address() as { port: number }).port, offAddress };
  web = linkWeb({ seed, pages, sitePort: hello.sitePort, offPort: hello.offPort });
  process.on('message', (m) => {
    if (m === 'count') process.send!({ requests, bytes: closedBytes + [...sockets].reduce((n, s) => n + s.bytesWritten, 0) } satisfies Counters);
  });
  // The bench going away (or done) ends the server.
  process.on('disconnect', () => process.exit(0));
  process.send!(hello);
}

interface ChildWeb extends Hello {
  child: ChildProcess;
  counters(): Promise<Counters>;
  stop(): Promise<void>;
}

async function startWeb(seed: number, pages: number): Promise<ChildWeb> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(seed), String(pages)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const hello = await new Promise<Hello>((ok, fail) => {
    child.once('message', (m) => ok(m as Hello));
    child.once('exit', (c) => fail(new Error(`link web exited with ${c}`)));
  });
  return {
    ...hello,
    child,
    counters: () => new Promise((ok) => {
      child.once('message', (m) => ok(m as Counters));
      child.send('count');
    }),
    stop: async () => {
      child.disconnect();
      const timer = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

interface Row extends Counters, Score {
  checker: string;
  links: number;
  ms: number;
}

async function measure(web: ChildWeb, truth: LinkWeb['truth'], checker: string, run: () => Promise<Found>): Promise<Row> {
  const before = await web.counters();
  const t0 = performance.now();
  const found = await run();
  const ms = performance.now() - t0;
  const after = await web.counters();
  return { checker, links: found.links, ms, requests: after.requests - before.requests, bytes: after.bytes - before.bytes, ...score(truth, found) };
}

async function runSize(pages: number, dir: string): Promise<{ rows: Row[]; web: LinkWeb; offAddress: string }> {
  const child = await startWeb(SEED, pages);
  try {
    const web = linkWeb({ seed: SEED, pages, sitePort: child.sitePort, offPort: child.offPort });
    const addressOf = (host: string) => (host.endsWith('.offsite.test') ? child.offAddress : '127.0.0.1');
    const baseline = () => getEverything({ top: web.top, addressOf, inScope: (u) => new URL(u).hostname.endsWith('.test'), concurrency: CONCURRENCY });
    const resolve = [`*.site.test:127.0.0.1`, `*.offsite.test:${child.offAddress}`];
    let runs = 0;
    const anwc = (extra: string[]) => () => anwcMaintain({ top: web.top, db: `sqlite:${join(dir, `mom-${pages}-${runs++}.sqlite`)}`, resolve, hosts: '*.test', extra });
    // One unmeasured round of the baseline, so that neither checker meets a cold server.
    await baseline();
    const rows = [
      await measure(child, web.truth, `GET everything, ${CONCURRENCY} in flight`, baseline),
      await measure(child, web.truth, 'anwc maintain --site --delay 0', anwc([])),
      await measure(child, web.truth, 'anwc maintain --site --delay 0 --per-host 4', anwc(['--per-host', '4'])),
    ];
    return { rows, web, offAddress: child.offAddress };
  } finally {
    await child.stop();
  }
}

export async function main(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-bench-linkcheck-'));
  const out: string[] = [
    '## Checking one\'s own site: generated webs on loopback, each checker once (after an unmeasured warm-up of the baseline)',
    '',
    '| web | checker | links checked | broken found | moved found | false alarms | requests | KiB received | wall s | requests × | bytes × | time × |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const notes: string[] = [];
  try {
    for (const pages of SIZES) {
      const { rows, web, offAddress } = await runSize(pages, dir);
      const base = rows[0]!;
      const k = web.kinds;
      for (const r of rows) {
        out.push(`| ${pages} pages | ${r.checker} | ${r.links} | ${r.brokenFound} of ${k.broken} (${r.brokenRecall.toFixed(2)}) | ${r.movedFound} of ${k.moved} (${r.movedRecall.toFixed(2)}) | ${r.falseAlarms} | ${r.requests} | ${(r.bytes / 1024).toFixed(0)} | ${(r.ms / 1000).toFixed(2)} | ${(r.requests / base.requests).toFixed(2)} | ${(r.bytes / base.bytes).toFixed(2)} | ${(r.ms / base.ms).toFixed(2)} |`);
      }
      notes.push(`- ${pages} pages: ${k.images} images, ${k.pdfs} PDFs, ${k.offsite} pages on ${OFF_HOSTS.length} other hosts (${offAddress}), ${k.noHead} leaves that refuse HEAD (405), ${k.broken} broken links (404, 410, 500) and ${k.moved} moved ones (1-3 hops of 301/302/308), on ${SITE_HOST} and off it.`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    ...out,
    '',
    ...notes,
    '',
    'Found = URLs as referenced that the checker called broken (or moved) and the truth says are; the recall in brackets.',
    'False alarms: links called broken or moved that are neither. Requests and bytes are counted at the server (anwc\'s include',
    'one robots.txt a host); ratios are to the GET-everything row of the same web. anwc\'s wall time includes starting the',
    'CLI. A 500 is transient to anwc: the link is tried again (--max-retries 3, --backoff 2 s doubled) and its host backs off',
    '(errors in a row, up to 60 s in maintain), where the baseline asks once; see bench/README.md.',
  ].join('\n');
}

const self = import.meta.url === pathToFileURL(process.argv[1] ?? '').href;
if (self && process.argv[2] === '--serve') await serve(Number(process.argv[3]), Number(process.argv[4]));
else if (self) console.log(await main());
