import { Agent, request } from 'node:http';
import { references } from '../src/walk/references.js';
import { anwc } from '../test/support/cli.js';

/**
 * The two link checkers the maintain and linkcheck benches set side by side, on webs served on
 * loopback: `anwc maintain --site` as a user runs it (the built CLI in a child process), and a
 * GET-everything checker written here, which does what lychee does by default (`--method get`:
 * every link requested with GET, redirects followed) and recurses through the site as
 * linkinator's `--recurse` does, with no retries (linkinator's default).
 */

/** What a checker reported: how many links it checked, and the URLs (as referenced) it called broken or moved. */
export interface Found {
  links: number;
  broken: string[];
  moved: string[];
}

interface Got {
  status: number;
  location?: string;
  type: string;
  body: Buffer;
}

/** One GET to the name's loopback address on the URL's port, the name in Host; a redirect is the caller's to follow. */
function get(agent: Agent, address: string, url: string): Promise<Got> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = request({ host: address, port: u.port || 80, path: u.pathname + u.search, headers: { host: u.host }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}), type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

export interface GetEverythingOptions {
  top: string;
  /** The loopback address a host name is served on (the bench's --resolve). */
  addressOf(hostname: string): string;
  /** References to check: those on the bench's own hosts (nothing leaves the machine). */
  inScope(url: string): boolean;
  /** Requests in flight at once, on kept-alive connections. */
  concurrency: number;
}

const MAX_HOPS = 5;

/** Breadth first through the top's host; every reference GET once, redirects followed (at most 5). */
export async function getEverything(o: GetEverythingOptions): Promise<Found> {
  const home = new URL(o.top).host;
  const seen = new Set([o.top]);
  const queue = [o.top];
  const broken: string[] = [];
  const moved: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const check = async (url: string): Promise<void> => {
    let at = url;
    let r = await get(agent, o.addressOf(new URL(at).hostname), at);
    for (let hop = 0; hop < MAX_HOPS && r.status >= 300 && r.status < 400 && r.location; hop++) {
      at = new URL(r.location, at).href;
      r = await get(agent, o.addressOf(new URL(at).hostname), at);
    }
    if (at !== url) moved.push(url);
    if (r.status >= 400) broken.push(url);
    if (r.status === 200 && new URL(at).host === home && /html/.test(r.type)) {
      for (const ref of references(r.body.toString('utf8'), at)) {
        if (!/^https?:/.test(ref.url) || !o.inScope(ref.url) || seen.has(ref.url)) continue;
        seen.add(ref.url);
        queue.push(ref.url);
      }
    }
  };
  try {
    // Up to `concurrency` checks at once; each one done starts the next; the last one done ends it.
    await new Promise<void>((done, fail) => {
      let active = 0;
      const pump = (): void => {
        while (active < o.concurrency && queue.length > 0) {
          active++;
          check(queue.shift()!).then(() => {
            active--;
            if (active === 0 && queue.length === 0) done();
            else pump();
          }, fail);
        }
      };
      pump();
    });
  } finally {
    agent.destroy();
  }
  return { links: seen.size, broken, moved };
}

export interface AnwcMaintainOptions {
  top: string;
  /** `--db`, a fresh SQLite file per run. */
  db: string;
  resolve: string[];
  hosts: string;
  /** Further flags, e.g. `--per-host 4`. */
  extra?: string[];
}

/** The CLI in a child process, not a blocking one: a test web in this process answers from its event loop. */
export async function anwcMaintain(o: AnwcMaintainOptions): Promise<Found> {
  const r = await anwc([
    'maintain', '--site', o.top, '--json', '--db', o.db, '--resolve', ...o.resolve, '--hosts', o.hosts, '--delay', '0', '--progress', 'none', ...(o.extra ?? []),
  ]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`anwc maintain failed (${r.code}): ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { checks: Record<string, unknown>; interesting: { broken: { check: { url: string } }[]; moved: { url: string }[] } };
  return { links: Object.keys(report.checks).length, broken: report.interesting.broken.map((b) => b.check.url), moved: report.interesting.moved.map((m) => m.url) };
}
