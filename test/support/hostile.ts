import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { constants, createBrotliCompress, gzipSync } from 'node:zlib';
import { buffer } from 'node:stream/consumers';

/**
 * Hostile hosts of the test web, each named by what it does (practice 11), so a test reads
 * "fetch from slow-drip.test" and the failure it expects. Every handler stops by itself or when
 * the client goes away; nothing here runs forever after the connection is closed.
 */

export interface HostileContext {
  /** `http://HOST:PORT` of the test web, for redirects to other hosts. */
  origin(host: string): string;
  port: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: HostileContext) => void;

const SPACES_1M = Buffer.alloc(1024 * 1024, 0x20);
/** Decoded size of the gzip bomb: far beyond any cap a test sets. */
export const BOMB_DECODED_BYTES = 256 * 1024 * 1024;
/** Brotli has no concatenable members, so its bomb is compressed for real: smaller to stay quick, still 4× the default cap. */
export const BROTLI_BOMB_DECODED_BYTES = 16 * 1024 * 1024;

let gzipBomb: Buffer | undefined;
/** gzip members may be concatenated (RFC 1952 2.2): 256 copies of 1 MiB of spaces in ~260 KB. */
function gzipBombBytes(): Buffer {
  if (!gzipBomb) {
    const member = gzipSync(SPACES_1M, { level: 9 });
    gzipBomb = Buffer.concat(Array.from({ length: BOMB_DECODED_BYTES / SPACES_1M.length }, () => member));
  }
  return gzipBomb;
}

let brotliBomb: Promise<Buffer> | undefined;
function brotliBombBytes(): Promise<Buffer> {
  brotliBomb ??= buffer(
    Readable.from((function* () {
      for (let i = 0; i < BROTLI_BOMB_DECODED_BYTES / SPACES_1M.length; i++) yield SPACES_1M;
    })()).pipe(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })),
  );
  return brotliBomb;
}

/** Writes `chunk` over and over, respecting backpressure, until the client leaves or `limit` bytes. */
function pour(res: ServerResponse, chunk: Buffer, limit: number): void {
  let sent = 0;
  const more = (): void => {
    while (sent < limit && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
}

function html(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, 'content-type': 'text/html' });
  res.end(`<a href="${location}">moved</a>`);
}

const ROBOTS_CONTENT = 'User-agent: *\nDisallow: /private\n';

/** A robots.txt over 500 KiB: a rule at the top, filler, and a rule past the parse limit. */
function hugeRobots(): string {
  const filler = '# filler line to make this file larger than any parser should read\n';
  const lines = ['User-agent: *', 'Disallow: /early', ''];
  let size = 0;
  while (size < 600 * 1024) {
    lines.push(filler.trimEnd());
    size += filler.length;
  }
  lines.push('Disallow: /late', '');
  return lines.join('\n');
}

function robotsChain(hops: number): Handler {
  return (req, res) => {
    const m = /^\/(?:robots\.txt|hop\/(\d+))$/.exec(req.url ?? '');
    if (!m) return html(res, 404, 'not here');
    const n = m[1] === undefined ? 0 : Number(m[1]);
    if (n < hops) return redirect(res, 301, `/hop/${n + 1}`);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(ROBOTS_CONTENT);
  };
}

function robotsStatus(status: number): Handler {
  return (req, res) => {
    if (req.url === '/robots.txt') return html(res, status, 'robots.txt is unavailable');
    html(res, 200, '<p>A page behind a robots.txt that fails.</p>');
  };
}

/** windows-1252 for "café — naïve" differs from its UTF-8 bytes in every non-ASCII letter. */
const CAFE_TEXT = '<html><body><p>The café — naïve.</p></body></html>';
const CAFE_1252 = Buffer.from(CAFE_TEXT.replace('—', '\u0097'), 'latin1');
const CAFE_UTF8 = Buffer.from(CAFE_TEXT, 'utf8');

function pseudoRandomBytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export const HOSTILE: Record<string, Handler> = {
  /** Headers at once, then one byte every 100 ms: never idle long enough for an idle timeout. */
  'slow-drip.test': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body>');
    const t = setInterval(() => res.write('.'), 100);
    const stop = setTimeout(() => { clearInterval(t); res.end(); }, 60_000);
    res.on('close', () => { clearInterval(t); clearTimeout(stop); });
  },
  /** A body without end (stops after 2 GiB or when the client leaves). */
  'endless-body.test': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    pour(res, Buffer.from('<p>more and more text</p>\n'.repeat(2048)), 2 * 1024 ** 3);
  },
  'gzip-bomb.test': (_req, res) => {
    const bytes = gzipBombBytes();
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': bytes.length });
    res.end(bytes);
  },
  'brotli-bomb.test': (_req, res) => {
    void brotliBombBytes().then((bytes) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br', 'content-length': bytes.length });
      res.end(bytes);
    });
  },
  /** /a → /b → /a. */
  'redirect-loop.test': (req, res) => redirect(res, 302, req.url === '/a' ? '/b' : '/a'),
  /** /n/1 → /n/2 → … without end. */
  'redirect-chain.test': (req, res) => {
    const n = Number(/^\/n\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    redirect(res, 302, `/n/${n + 1}`);
  },
  /** Redirects to a loopback address no --resolve mapping names (the canary listener). */
  'leave-addresses.test': (_req, res, ctx) => redirect(res, 302, `http://127.0.0.2:${ctx.port}/secret`),
  'retry-after.test': (_req, res) => html(res, 429, 'slow down', { 'retry-after': '7' }),
  'unavailable.test': (_req, res) =>
    html(res, 503, 'down for maintenance', { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }),
  'robots-503.test': robotsStatus(503),
  'robots-500.test': robotsStatus(500),
  'robots-huge.test': (req, res) => {
    if (req.url !== '/robots.txt') return html(res, 200, '<p>page</p>');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(hugeRobots());
  },
  'robots-3-redirects.test': robotsChain(3),
  'robots-7-redirects.test': robotsChain(7),
  /** Declares UTF-8, sends windows-1252. */
  'charset-lies-utf8.test': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(CAFE_1252);
  },
  /** Declares windows-1252, sends UTF-8. */
  'charset-lies-1252.test': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
    res.end(CAFE_UTF8);
  },
  'binary-as-html.test': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(pseudoRandomBytes(8192, 42));
  },
  /** Every day links to the next one, forever: a trap only a budget or depth limit escapes. */
  'infinite-calendar.test': (req, res) => {
    const day = /^\/(\d{4}-\d{2}-\d{2})$/.exec(req.url ?? '')?.[1] ?? '2024-01-01';
    html(res, 200, `<html><body><h1>${day}</h1><p>Nothing happened.</p><a href="/${nextDay(day)}">next day</a></body></html>`);
  },
  /** Promises 100000 bytes, sends 1000, then resets the connection (TCP RST). */
  'reset-mid-body.test': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': 100_000 });
    res.write(`<html><body><p>${'x'.repeat(1000)}`);
    setTimeout(() => req.socket.resetAndDestroy(), 20);
  },
  /** Takes the request and never answers. */
  'header-timeout.test': () => undefined,
};
