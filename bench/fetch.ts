import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { Fetcher } from '../src/web/fetcher.js';
import { sharedPath } from '../test/support/shared.js';
import { SITES } from '../test/support/testweb.js';
import { count } from './knobs.js';

/**
 * Pages per second and CPU per page of the fetcher (politeness off: address check, caps,
 * decompression, charset decoding) beside plain undici request() against the same local test
 * web in the same run. The test web runs in a child process so that the CPU measured here is
 * the client's alone.
 */

const REQUESTS = count('BENCH_FETCH_REQUESTS', 2000);
const CONCURRENCY = 8;

function corpusPaths(): { host: string; path: string }[] {
  const out: { host: string; path: string }[] = [];
  for (const [host, site] of Object.entries(SITES)) {
    const root = sharedPath('corpus', site.dir);
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (/\.x?html$/.test(e.name)) out.push({ host, path: '/' + relative(root, full) });
      }
    };
    walk(root);
  }
  return out.sort((a, b) => (a.host + a.path).localeCompare(b.host + b.path));
}

/** Starts the test web in a child process; resolves with its port and a stop function. */
async function startServer(): Promise<{ port: number; stop: () => void }> {
  const testweb = pathToFileURL(fileURLToPath(new URL('../test/support/testweb.js', import.meta.url))).href;
  const code = `const { startTestWeb } = await import(${JSON.stringify(testweb)});
const web = await startTestWeb(); process.stdout.write(web.port + '\\n');
process.stdin.on('end', () => web.close().then(() => process.exit(0))); process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((ok, fail) => {
    child.stdout.once('data', (d: Buffer) => ok(Number(d.toString().trim())));
    child.once('exit', (c) => fail(new Error(`test web exited with ${c}`)));
  });
  return { port, stop: () => child.stdin.end() };
}

interface Run {
  pages: number;
  bytes: number;
  ms: number;
  cpuUs: number;
}

async function measure(jobs: number, one: (i: number) => Promise<number>): Promise<Run> {
  let next = 0;
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs) {
        const n = await one(next++);
        bytes += n;
      }
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { pages: jobs, bytes, ms, cpuUs: cpu.user + cpu.system };
}

export async function main(requests = REQUESTS): Promise<string> {
  const pages = corpusPaths();
  const server = await startServer();
  const url = (i: number) => {
    const p = pages[i % pages.length]!;
    return { host: `${p.host}:${server.port}`, path: p.path };
  };
  const fetcher = new Fetcher({ resolve: ['*.test:127.0.0.1'], connectionsPerOrigin: CONCURRENCY });
  const agent = new Agent({ connections: CONCURRENCY });
  try {
    const plainOne = async (i: number) => {
      const u = url(i);
      const res = await request(`http://127.0.0.1:${server.port}${u.path}`, { dispatcher: agent, headers: { host: u.host } });
      const body = new Uint8Array(await res.body.arrayBuffer());
      if (res.statusCode !== 200) throw new Error(`plain: ${res.statusCode} for ${u.host}${u.path}`);
      return body.length;
    };
    const fetchOne = (decode: boolean) => async (i: number) => {
      const u = url(i);
      const o = await fetcher.fetch(`http://${u.host}${u.path}`, { decode });
      if (o.kind !== 'ok') throw new Error(`fetcher: ${o.kind} for ${u.host}${u.path}`);
      return o.bytes;
    };
    // Warm every path (connections, JIT, the server's file cache) before measuring.
    for (const warm of [plainOne, fetchOne(false), fetchOne(true)]) await measure(pages.length, warm);
    // Interleaved rounds, so drift in the machine's load falls on every client alike.
    const ROUNDS = 4;
    const clients = [plainOne, fetchOne(false), fetchOne(true)];
    const totals: Run[] = clients.map(() => ({ pages: 0, bytes: 0, ms: 0, cpuUs: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (let c = 0; c < clients.length; c++) {
        const r = await measure(Math.ceil(requests / ROUNDS), clients[c]!);
        const t = totals[c]!;
        t.pages += r.pages;
        t.bytes += r.bytes;
        t.ms += r.ms;
        t.cpuUs += r.cpuUs;
      }
    }
    const [plain, raw, full] = totals as [Run, Run, Run];
    const row = (name: string, r: Run) =>
      `| ${name} | ${r.pages} | ${((r.pages / r.ms) * 1000).toFixed(0)} | ${(r.cpuUs / r.pages).toFixed(0)} | ${((r.bytes / r.ms) * 1000 / 2 ** 20).toFixed(1)} | ${(r.cpuUs / r.pages / (plain.cpuUs / plain.pages)).toFixed(2)}x |`;
    return [
      `## fetcher vs plain undici request(), ${pages.length} corpus pages cycled, ${CONCURRENCY} in flight, local test web in a child process`,
      '',
      '| client | pages | pages/s | CPU µs/page | MiB/s | CPU ratio |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      row('undici request() (baseline)', plain),
      row('Fetcher, no charset decoding', raw),
      row('Fetcher, decoded to text', full),
    ].join('\n');
  } finally {
    await fetcher.close();
    await agent.close();
    server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
