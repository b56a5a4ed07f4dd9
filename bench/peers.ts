import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Other crawlers on the crawl bench's web, when they are installed: Crawlee's CheerioCrawler from a
 * scratch folder (never a dependency of ours) and Scrapy from Debian's package. Each walks the
 * whole web from its home pages with robots.txt obeyed, the same pages in flight and every <p>
 * read, and stores nothing (bench/peers/).
 *
 *   npm install --prefix /tmp/anwc-bench-peers @crawlee/cheerio@3.18.1   (or BENCH_PEERS_DIR=DIR)
 *   apt-get install python3-scrapy                                       (or BENCH_PYTHON=PATH)
 */

const dist = fileURLToPath(new URL('..', import.meta.url));
const SCRIPTS = join(dist, '..', 'bench', 'peers');
const HOOK = join(dist, 'bench', 'usage-hook.js');

export interface PeerRun {
  pages: number;
  ms: number;
  cpuMs: number;
  maxRssMb: number;
}

export interface Peer {
  name: string;
  /** The goal (issue: speed): anwc on SQLite at this many times the peer's pages/s or more. */
  timesGoal: number;
  /** Whether anwc's peak RSS must stay at or below this peer's too. */
  memoryGoal: boolean;
  run(port: number, hosts: number, concurrency: number): Promise<PeerRun>;
}

/** The peers found on this machine, and a line for each one that is not, saying how to add it. */
export function findPeers(): { peers: Peer[]; missing: string[] } {
  const peers: Peer[] = [];
  const missing: string[] = [];
  const dir = process.env.BENCH_PEERS_DIR ?? join(tmpdir(), 'anwc-bench-peers');
  const crawlee = join(dir, 'node_modules', '@crawlee', 'cheerio', 'package.json');
  if (existsSync(crawlee)) {
    const version = (JSON.parse(readFileSync(crawlee, 'utf8')) as { version: string }).version;
    peers.push({ name: `Crawlee CheerioCrawler ${version}`, timesGoal: 4, memoryGoal: true, run: (port, hosts, n) => runCrawlee(dir, port, hosts, n) });
  } else {
    missing.push(`Crawlee: not measured (npm install --prefix ${dir} @crawlee/cheerio@3.18.1, or BENCH_PEERS_DIR=a folder that has it)`);
  }
  const python = [process.env.BENCH_PYTHON, 'python3', '/usr/bin/python3'].find((p) =>
    p !== undefined && spawnSync(p, ['-c', 'import scrapy'], { stdio: 'ignore' }).status === 0);
  if (python) {
    const version = spawnSync(python, ['-c', 'import scrapy; print(scrapy.__version__)'], { encoding: 'utf8' }).stdout.trim();
    peers.push({ name: `Scrapy ${version}`, timesGoal: 6, memoryGoal: false, run: (port, hosts, n) => runScrapy(python, port, hosts, n) });
  } else {
    missing.push('Scrapy: not measured (apt-get install python3-scrapy, or BENCH_PYTHON=a python that has it)');
  }
  return { peers, missing };
}

function runChild(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0
      ? done({ stdout, ms: performance.now() - t0 })
      : fail(new Error(`${cmd} ${args[0]} exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' / ')}`))));
  });
}

const lastJson = <T>(out: string): T => JSON.parse(out.trim().split('\n').pop()!) as T;

async function runCrawlee(dir: string, port: number, hosts: number, concurrency: number): Promise<PeerRun> {
  const usage = join(mkdtempSync(join(tmpdir(), 'anwc-peer-usage-')), 'usage.json');
  try {
    const { stdout, ms } = await runChild(process.execPath,
      ['--import', pathToFileURL(HOOK).href, join(SCRIPTS, 'crawlee-crawl.mjs'), dir, String(port), String(hosts), String(concurrency)],
      { ...process.env, ANWC_BENCH_USAGE: usage, CRAWLEE_LOG_LEVEL: 'OFF', CRAWLEE_STORAGE_DIR: join(usage, '..', 'storage') });
    const own = JSON.parse(readFileSync(usage, 'utf8')) as { cpuMs: number; maxRssKb: number };
    return { pages: lastJson<{ pages: number }>(stdout).pages, ms, cpuMs: own.cpuMs, maxRssMb: own.maxRssKb / 1024 };
  } finally {
    rmSync(join(usage, '..'), { recursive: true, force: true });
  }
}

async function runScrapy(python: string, port: number, hosts: number, concurrency: number): Promise<PeerRun> {
  const { stdout, ms } = await runChild(python, [join(SCRIPTS, 'scrapy_crawl.py'), String(port), String(hosts), String(concurrency)], process.env);
  const r = lastJson<{ pages: number; cpuMs: number; maxRssKb: number }>(stdout);
  return { pages: r.pages, ms, cpuMs: r.cpuMs, maxRssMb: r.maxRssKb / 1024 };
}
