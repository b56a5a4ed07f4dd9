import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { contentType, listHosts, resolvePath } from './files.js';
import { loadDemoPages } from './pages.js';
import { defaultSitesDir } from './paths.js';
import { answerApi, DemoSearchIndex } from './search.js';

/** `http://x.demo/…` → `http://x.demo:PORT/…` in links of a page. */
export function withPort(html: string, port: number): string {
  return html.replace(/(["'(]https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*\.demo)(?=[/"'?#)])/gi, `$1:${port}`);
}

/** The virtual host that answers the MediaWiki-shaped search API and its /wiki/ redirects. */
export const DEMO_SEARCH_HOST = 'search.demo';

export interface DemoWebOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** The folder with one subfolder per host; default <package>/demo/sites. */
  root?: string;
}

export interface DemoWeb {
  port: number;
  /** The site hosts, sorted (the folders of root); search.demo is not among them. */
  hosts: string[];
  /** `search.demo`. */
  searchHost: string;
  /**
   * `http://search.demo:<port>/`: the site root the wikipedia provider takes as its endpoint
   * (API at w/api.php, articles at wiki/Title). The same engine answers on
   * `http://127.0.0.1:<port>/` for a client that cannot map names (see demoAgent).
   */
  searchEndpoint: string;
  /** `HOST:127.0.0.1` for every site host and search.demo: the crawler's `--resolve` mappings. */
  resolve: string[];
  /** `http://<host>:<port><path>`; path defaults to `/`. Reach it with HOST → 127.0.0.1. */
  url(host: string, path?: string): string;
  close(): Promise<void>;
}

/**
 * Serves every folder of the demo web as a virtual host, chosen by the Host header (port
 * ignored), on one node:http server bound to 127.0.0.1, plus the search engine on search.demo
 * (and on any address-literal or localhost Host).
 * GET and HEAD only; a folder serves its index.html; unknown hosts and missing files are 404;
 * a path with `..`, a backslash, NUL or a bad %-escape is refused with 400.
 */
export async function startDemoWeb(opts: DemoWebOptions = {}): Promise<DemoWeb> {
  const root = opts.root ?? defaultSitesDir();
  const hosts = listHosts(root).filter((h) => h !== DEMO_SEARCH_HOST);
  const index = new DemoSearchIndex(loadDemoPages(root));
  let port = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, req, 500, 'text/plain; charset=utf-8', `internal error: ${String(err)}\n`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, req, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    }
    const host = hostOf(req.headers.host);
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const query = q < 0 ? '' : target.slice(q + 1);
    if (host === DEMO_SEARCH_HOST || isAddressName(host)) return handleSearch(req, res, rawPath, query);
    if (!hosts.includes(host)) {
      return send(res, req, 404, 'text/plain; charset=utf-8', `unknown host ${JSON.stringify(host)}; this server has ${hosts.join(', ')}\n`);
    }
    const r = await resolvePath(join(root, host), rawPath);
    switch (r.kind) {
      case 'refused':
        return send(res, req, 400, 'text/plain; charset=utf-8', 'bad request path\n');
      case 'not-found':
        return send(res, req, 404, 'text/html; charset=utf-8', notFoundPage(rawPath));
      case 'slash':
        res.setHeader('Location', r.location + (query ? `?${query}` : ''));
        return send(res, req, 301, 'text/plain; charset=utf-8', `moved to ${r.location}\n`);
      case 'file': {
        const type = contentType(r.file);
        if (type.startsWith('text/html') && port !== 80) {
          // The pages link each other as http://host.demo/…; a server on a random port gives
          // those links its port, as a real web on port 80 would not need to.
          const html = withPort(await readFile(r.file, 'utf8'), port);
          return send(res, req, 200, type, html);
        }
        res.writeHead(200, { 'Content-Type': type, 'Content-Length': r.size });
        if (req.method === 'HEAD') return void res.end();
        createReadStream(r.file).on('error', () => res.destroy()).pipe(res);
      }
    }
  }

  function handleSearch(req: IncomingMessage, res: ServerResponse, rawPath: string, query: string): void {
    if (rawPath === '/w/api.php') {
      const body = JSON.stringify(answerApi(index, new URLSearchParams(query)));
      return send(res, req, 200, 'application/json; charset=utf-8', body);
    }
    if (rawPath.startsWith('/wiki/')) {
      let title: string;
      try {
        title = decodeURIComponent(rawPath.slice('/wiki/'.length));
      } catch {
        return send(res, req, 400, 'text/plain; charset=utf-8', 'bad title\n');
      }
      const page = index.pageForTitle(title);
      if (!page) return send(res, req, 404, 'text/html; charset=utf-8', notFoundPage(rawPath));
      const location = `http://${page.host}:${port}${encodeURI(page.path)}`;
      res.setHeader('Location', location);
      return send(res, req, 302, 'text/plain; charset=utf-8', `see ${location}\n`);
    }
    if (rawPath === '/robots.txt') return send(res, req, 200, 'text/plain; charset=utf-8', 'User-agent: *\nDisallow:\n');
    if (rawPath === '/') {
      return send(res, req, 200, 'text/plain; charset=utf-8',
        `demo search engine over ${index.size} pages: /w/api.php?action=query&list=search&srsearch=WORDS&format=json&formatversion=2\n`);
    }
    return send(res, req, 404, 'text/html; charset=utf-8', notFoundPage(rawPath));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    hosts,
    searchHost: DEMO_SEARCH_HOST,
    searchEndpoint: `http://${DEMO_SEARCH_HOST}:${port}/`,
    resolve: [...hosts, DEMO_SEARCH_HOST].map((h) => `${h}:127.0.0.1`),
    url: (host, path = '/') => `http://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A name that is an address, not a site: the search engine answers there too. */
function isAddressName(host: string): boolean {
  return host === 'localhost' || host === '' || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
}

/** The Host header's name, lowercased, without port or a trailing dot. */
function hostOf(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase();
  const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

function send(res: ServerResponse, req: IncomingMessage, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notFoundPage(path: string): string {
  const p = path.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head>\n<body><h1>Not Found</h1><p>No page at ${p}</p></body></html>\n`;
}
