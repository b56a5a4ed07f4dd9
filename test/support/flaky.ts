import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A small web on 127.0.0.1 whose pages misbehave on purpose, for the walker's own tests: a page
 * can be slow (to see how many requests a host gets at once), or fail its first N requests with
 * a 503, a 429, a reset connection or silence (to see retries). Every request is logged with its
 * start and end, so politeness is checked at the server, where it matters. Names reach it
 * through `resolve`, never through DNS.
 */

export type Failure = '503' | '429' | 'reset' | 'timeout' | '404';

export interface FlakyPage {
  html: string;
  /** Milliseconds before the answer. */
  delayMs?: number;
  /** The first this-many requests fail with `failWith`. */
  failFirst?: number;
  failWith?: Failure;
  /** Sent with a 503 or 429. */
  retryAfter?: string;
  /** Sent with the page when it answers (Last-Modified, ETag, …). */
  headers?: Record<string, string>;
  /** Answered with a 301 to this address (a path or a whole URL) instead of the page. */
  redirect?: string;
  /** A HEAD is answered with this status (a server that does not do HEAD: 405 or 501), a GET with the page. */
  refuseHead?: number;
}

export interface Hit {
  method: string;
  host: string;
  path: string;
  start: number;
  end: number;
}

export interface FlakyWeb {
  port: number;
  resolve: string[];
  url(host: string, path?: string): string;
  page(host: string, path: string, page: FlakyPage | string): void;
  hits(host?: string): Hit[];
  count(host: string, path?: string): number;
  /** The most requests to the host, or to any of the hosts, the server was answering at one time. */
  maxConcurrent(hosts: string | readonly string[]): number;
  close(): Promise<void>;
}

/** How long a "timeout" page stays silent before the server gives up itself (bounded: tests end). */
const SILENCE_MS = 3000;

export async function startFlakyWeb(): Promise<FlakyWeb> {
  const pages = new Map<string, FlakyPage>();
  const seen = new Map<string, number>();
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = req.url ?? '/';
    const hit: Hit = { method: req.method ?? 'GET', host, path, start: Date.now(), end: 0 };
    hits.push(hit);
    res.on('close', () => (hit.end ||= Date.now()));
    const key = host + path;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const page = pages.get(key);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    if (n <= (page.failFirst ?? 0)) {
      fail(page, req, res);
      return;
    }
    if (req.method === 'HEAD' && page.refuseHead !== undefined) {
      res.writeHead(page.refuseHead, { 'content-type': 'text/plain' }).end();
      return;
    }
    if (page.redirect !== undefined) {
      res.writeHead(301, { location: page.redirect, 'content-type': 'text/plain' }).end('moved');
      return;
    }
    setTimeout(() => {
      // Content-Length on HEAD too, as real servers send it: header constraints read it.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page.html), ...page.headers }).end(req.method === 'HEAD' ? undefined : page.html);
    }, page.delayMs ?? 0);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    resolve: ['*.test:127.0.0.1'],
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    page(host, path, page) {
      pages.set(host + path, typeof page === 'string' ? { html: page } : page);
    },
    hits: (host) => hits.filter((h) => host === undefined || h.host === host),
    count: (host, path) => hits.filter((h) => h.host === host && (path === undefined || h.path === path)).length,
    maxConcurrent: (asked) => mostAtOnce(hits.filter((h) => (typeof asked === 'string' ? h.host === asked : asked.includes(h.host)))),
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

/** The most of the hits open at one time; one that ended in the millisecond another started is not counted with it, one still open is. */
function mostAtOnce(hits: Hit[]): number {
  const events = hits.flatMap((h) => [[h.start, 1], [h.end || Infinity, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of events) most = Math.max(most, (open += step));
  return most;
}

function fail(page: FlakyPage, req: IncomingMessage, res: ServerResponse): void {
  switch (page.failWith ?? '503') {
    case '503':
    case '429': {
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (page.retryAfter) headers['retry-after'] = page.retryAfter;
      res.writeHead(Number(page.failWith ?? '503'), headers).end('not now');
      return;
    }
    case '404':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'timeout': {
      const timer = setTimeout(() => req.socket.destroy(), SILENCE_MS);
      req.socket.on('close', () => clearTimeout(timer));
      return;
    }
  }
}

const WHO = ['The keeper', 'My grandmother', 'The old doctor', 'A fisherman from the bay', 'The youngest of the boys', 'Our neighbour', 'The ferryman', 'A stranger in a grey coat'];
const DID = ['climbed the stairs of the tower', 'walked down to the harbour', 'read the letter by the fire', 'mended the nets in the yard', 'waited at the end of the pier', 'counted the boats in the bay', 'baked bread for the whole street', 'carried the lamp across the rocks'];
const WHEN = ['when the storm reached the coast', 'before the first light of the morning', 'while the rain beat on the windows', 'as the tide came in over the sand', 'after the church bell had rung twice', 'long after everyone else had gone to bed', 'on the coldest night of that winter', 'because nobody else would do it'];

/**
 * A paragraph the thesis rules accept, its own for each `n`: after one sentence they all share,
 * three whose parts are drawn by a hash of `n`, so that two pages' paragraphs are not near-copies of each other (the
 * harvest would link the second to the first) and each page's node is its own.
 */
export function prose(n: number | string): string {
  let h = 0x811c9dc5;
  for (const c of String(n)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  const next = () => {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    return h;
  };
  const sentence = () => `${WHO[next() % 8]} ${DID[next() % 8]} ${WHEN[next() % 8]}.`;
  // Every one speaks of the keeper, the lamp and the storm, the meta words tests search with.
  return `<p>The keeper lit the lamp before the storm. ${sentence()} ${sentence()} ${sentence()} It was the ${n}th time.</p>`;
}
