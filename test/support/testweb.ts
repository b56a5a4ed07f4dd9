import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { SHARED_DIR } from './shared.js';
import { HOSTILE, type HostileContext } from './hostile.js';

/**
 * The local web every network test talks to: one HTTP server on 127.0.0.1, port 0, serving
 * virtual hosts by the Host header. The five corpus sites are real document roots, a hub links
 * them, tests add pages in code, and the hostile hosts of hostile.ts misbehave on purpose.
 * Names reach it through `resolve` (['*.test:127.0.0.1']), never through DNS.
 */

export const SITES: Record<string, { dir: string; entry: string }> = {
  'sherlock.test': { dir: 'standardebooks-arthur-conan-doyle_the-adventures-of-sherlock-holmes', entry: '/toc.xhtml' },
  'timemachine.test': { dir: 'standardebooks-h-g-wells_the-time-machine', entry: '/toc.xhtml' },
  'chickens.test': { dir: 'standardebooks-p-g-wodehouse_love-among-the-chickens', entry: '/toc.xhtml' },
  'diveintopython.test': { dir: 'dive-into-python-3', entry: '/index.html' },
  'debian.test': { dir: 'debian-handbook', entry: '/index.html' },
};

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css',
  '.txt': 'text/plain',
  '.md': 'text/plain; charset=utf-8',
  '.opf': 'application/oebps-package+xml',
};

export interface PageOptions {
  status?: number;
  headers?: Record<string, string>;
  /** Compress the body on registration and send Content-Encoding. `deflate-raw` sends raw deflate labelled "deflate". */
  encoding?: 'gzip' | 'deflate' | 'deflate-raw' | 'br';
}

interface Page {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface TestWeb {
  port: number;
  /** `http://HOST:PORT/PATH`. */
  url(host: string, path?: string): string;
  /** Mappings that send every *.test name to the server. */
  resolve: string[];
  page(host: string, path: string, body: string | Buffer, opts?: PageOptions): void;
  /** Requests seen for host+path (path with query), or for the whole host without a path. */
  count(host: string, path?: string): number;
  /** When each request for the host arrived (epoch ms) and for which path, in arrival order. */
  arrivals(host: string): { path: string; at: number }[];
  /** Request headers of the last request for host+path. */
  lastHeaders(host: string, path: string): Record<string, string | string[] | undefined> | undefined;
  /** Connections made to 127.0.0.2:PORT, an address outside the mappings that nothing may reach. */
  canaryConnections(): number;
  /** Whether the canary listens (127.0.0.2 is loopback on Linux, not on macOS). */
  canaryListening: boolean;
  /** TCP connections the server has accepted so far. */
  connections(): number;
  /** Requests answered so far, every host. */
  requests(): number;
  /** Bytes the server has written to its connections so far (headers and bodies). */
  bytesOut(): number;
  /** How many distinct connections carried the requests for host+path (1 when reused). */
  connectionsUsed(host: string, path: string): number;
  close(): Promise<void>;
}

function encode(body: Buffer, encoding: PageOptions['encoding']): Buffer {
  switch (encoding) {
    case 'gzip': return gzipSync(body);
    case 'deflate': return deflateSync(body);
    case 'deflate-raw': return deflateRawSync(body);
    case 'br': return brotliCompressSync(body);
    default: return body;
  }
}

/** A resolver for fetchers under test: any name without a --resolve mapping fails as DNS would, and no query leaves the machine. */
export const noDns = async (host: string): Promise<{ address: string; family: number }[]> => {
  throw Object.assign(new Error(`no DNS in tests (${host})`), { code: 'ENOTFOUND' });
};

export async function startTestWeb(): Promise<TestWeb> {
  const pages = new Map<string, Page>();
  const counts = new Map<string, number>();
  const hostCounts = new Map<string, number>();
  const last = new Map<string, Record<string, string | string[] | undefined>>();
  const arrived = new Map<string, { path: string; at: number }[]>();
  const socketIds = new WeakMap<Socket, number>();
  const carriedBy = new Map<string, Set<number>>();
  let port = 0;
  const ctx: HostileContext = { origin: (h) => `http://${h}:${port}`, get port() { return port; } };

  const hub = (): string =>
    '<!DOCTYPE html><html><head><title>Test web hub</title></head><body><h1>Sites</h1><ul>' +
    Object.entries(SITES).map(([h, s]) => `<li><a href="http://${h}:${port}${s.entry}">${h}</a></li>`).join('') +
    '</ul></body></html>';

  async function serveCorpus(dir: string, entry: string, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const rel = path === '/' ? entry : decodeURIComponent(path);
    // Without ../shared the corpus sites answer at once that their files are missing, never hang.
    const root = resolve(SHARED_DIR, 'corpus', dir);
    if (!existsSync(root)) return plain(res, 500, `test data missing: ${root} (set ANWC_SHARED)`);
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + '/')) return plain(res, 403, 'outside the document root');
    let info;
    try {
      info = await stat(file);
    } catch {
      return plain(res, 404, 'not found');
    }
    if (!info.isFile()) return plain(res, 404, 'not a file');
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const lastModified = info.mtime.toUTCString();
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'last-modified': lastModified });
      return void res.end();
    }
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      etag,
      'last-modified': lastModified,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = req.url ?? '/';
    const key = host + path;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    hostCounts.set(host, (hostCounts.get(host) ?? 0) + 1);
    let times = arrived.get(host);
    if (!times) arrived.set(host, (times = []));
    times.push({ path, at: Date.now() });
    last.set(key, req.headers);
    let carriers = carriedBy.get(key);
    if (!carriers) carriedBy.set(key, (carriers = new Set()));
    carriers.add(socketIds.get(req.socket) ?? -1);
    const page = pages.get(key);
    if (page) {
      const etag = page.headers.etag;
      if (etag && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        return void res.end();
      }
      res.writeHead(page.status, { 'content-length': page.body.length, ...page.headers });
      return void res.end(req.method === 'HEAD' ? undefined : page.body);
    }
    const hostile = HOSTILE[host];
    if (hostile) return hostile(req, res, ctx);
    const site = SITES[host];
    if (site) {
      serveCorpus(site.dir, site.entry, req, res, path.split('?')[0]!).catch((err: Error) => plain(res, 500, err.message));
      return;
    }
    if (host === 'hub.test' && path === '/') return void html(res, hub());
    plain(res, 404, `no page ${path} on ${host || 'an unnamed host'}`);
  });
  const sockets = new Set<Socket>();
  let accepted = 0;
  let closedBytes = 0;
  server.on('connection', (s) => {
    accepted++;
    socketIds.set(s, accepted);
    sockets.add(s);
    s.on('close', () => {
      closedBytes += s.bytesWritten;
      sockets.delete(s);
    });
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  port = (server.address() as { port: number }).port;

  let canaryCount = 0;
  // Connections are counted and closed at once; nothing legitimate ever comes here.
  let canary: NetServer | undefined = createNetServer((s) => {
    canaryCount++;
    s.destroy();
  });
  await new Promise<void>((ok) => {
    canary!.once('error', () => {
      canary = undefined; // 127.0.0.2 is not loopback everywhere (macOS); the check then has no listener.
      ok();
    });
    canary!.listen(port, '127.0.0.2', () => ok());
  });

  return {
    port,
    resolve: ['*.test:127.0.0.1'],
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    page(host, path, body, opts = {}) {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', ...opts.headers };
      if (opts.encoding) headers['content-encoding'] = opts.encoding === 'deflate-raw' ? 'deflate' : opts.encoding;
      const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      pages.set(host.toLowerCase() + path, { status: opts.status ?? 200, headers, body: encode(raw, opts.encoding) });
    },
    count: (host, path) => (path === undefined ? hostCounts.get(host) ?? 0 : counts.get(host + path) ?? 0),
    arrivals: (host) => [...(arrived.get(host) ?? [])],
    lastHeaders: (host, path) => last.get(host + path),
    canaryConnections: () => canaryCount,
    canaryListening: canary !== undefined,
    connections: () => accepted,
    requests: () => [...hostCounts.values()].reduce((a, b) => a + b, 0),
    bytesOut: () => closedBytes + [...sockets].reduce((a, s) => a + s.bytesWritten, 0),
    connectionsUsed: (host, path) => carriedBy.get(host + path)?.size ?? 0,
    async close() {
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
      if (canary) await new Promise<void>((ok) => canary!.close(() => ok()));
    },
  };
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
}
