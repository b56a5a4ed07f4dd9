import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the search APIs, on 127.0.0.1 port 0, answering in each API's documented
 * shapes (errors included). They search a small corpus for real: a query's terms (words, or
 * "quoted phrases") are ANDed over a document's title and text, so a query that is too narrow
 * really returns fewer results and seeding really has to widen it.
 *
 * Faults are named by what the server does (practice 11); `faultAfter` lets the first N
 * requests succeed, to test that what was found before a quota error is kept.
 */
export interface StandinDoc {
  url: string;
  title: string;
  text: string;
}

export type Api = 'google' | 'wikipedia' | 'searxng' | 'brave';

export type Fault =
  | 'none'
  /** Accepts the request and never answers. */
  | 'hang'
  /** 200 with a body that is not JSON. */
  | 'malformed'
  | 'server-error'
  /** google: 429 RESOURCE_EXHAUSTED / rateLimitExceeded. wikipedia: error ratelimited.
   * searxng: 429 from its limiter. brave: 429 with the monthly window spent. */
  | 'quota'
  /** google: 403 dailyLimitExceeded (the older shape of the same thing). */
  | 'daily-limit'
  /** google: 403 PERMISSION_DENIED, what a project without access gets since the API closed. */
  | 'permission-denied'
  /** wikipedia: error maxlag with Retry-After: 0, once, then normal answers. */
  | 'maxlag-once'
  /** brave: 429 on the per-second window, once, then normal answers. */
  | 'rate-limited-once'
  /** searxng: 403 Forbidden, what an instance without json in search.formats answers. */
  | 'json-disabled'
  /** searxng: no results, and every engine listed as unresponsive. */
  | 'engines-down';

export interface RecordedRequest {
  path: string;
  params: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface StandinOptions {
  fault?: Fault;
  /** How many requests succeed before the fault begins (default 0). */
  faultAfter?: number;
  /** The key the server accepts (google `key`, brave X-Subscription-Token). */
  key?: string;
  /** Results a page holds where the API decides (searxng, wikipedia's own cap). */
  pageSize?: number;
}

export interface Standin {
  /** The root to give as --search-endpoint. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests that carried a search query (not counting retries' repeats separately). */
  queries(): string[];
  options: StandinOptions;
  close(): Promise<void>;
}

export const STANDIN_KEY = 'standin-key-0123';

export async function startStandin(api: Api, docs: StandinDoc[], options: StandinOptions = {}): Promise<Standin> {
  const requests: RecordedRequest[] = [];
  const state = { served: 0, once: false };
  const opts: StandinOptions = { key: STANDIN_KEY, ...options };
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: u.pathname, params: u.searchParams, headers: req.headers });
    const fault = state.served++ >= (opts.faultAfter ?? 0) ? (opts.fault ?? 'none') : 'none';
    if (fault === 'hang') return; // never answers
    if (fault === 'malformed') return send(res, 200, '{"items": [ {"link": ', 'application/json');
    if (fault === 'server-error') return send(res, 503, '<html><body>Service Unavailable</body></html>', 'text/html');
    const handler = HANDLERS[api];
    handler({ u, req, res, docs, opts, fault, state });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    options: opts,
    queries: () => requests.map((r) => r.params.get('q') ?? r.params.get('srsearch') ?? '').filter(Boolean),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Ctx {
  u: URL;
  req: IncomingMessage;
  res: ServerResponse;
  docs: StandinDoc[];
  opts: StandinOptions;
  fault: Fault;
  state: { served: number; once: boolean };
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=UTF-8', headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The engines' query syntax as far as anwc uses it: terms ANDed, "a phrase" as one term. */
export function terms(q: string): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(/"([^"]*)"|(\S+)/g)) {
    const t = (m[1] ?? m[2] ?? '').trim().toLowerCase();
    if (t) out.push(t);
  }
  return out;
}

export function match(docs: StandinDoc[], q: string): StandinDoc[] {
  const ts = terms(q);
  return docs.filter((d) => {
    const hay = `${d.title} ${d.text}`.toLowerCase();
    return ts.length > 0 && ts.every((t) => hay.includes(t));
  });
}

const HANDLERS: Record<Api, (c: Ctx) => void> = { google, wikipedia, searxng, brave };

/** Custom Search JSON API v1, GET /customsearch/v1. */
function google({ u, res, docs, opts, fault }: Ctx): void {
  const p = u.searchParams;
  const apiError = (code: number, message: string, status: string, reason: string, extra: Record<string, unknown> = {}) =>
    send(res, code, { error: { code, message, errors: [{ message, domain: 'global', reason }], status, ...extra } });
  if (u.pathname !== '/customsearch/v1') return send(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
  if (p.get('key') !== opts.key) {
    return apiError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', 'badRequest', {
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
    });
  }
  if (fault === 'quota') {
    return apiError(429, "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of service 'customsearch.googleapis.com' for consumer 'project_number:000000000000'.", 'RESOURCE_EXHAUSTED', 'rateLimitExceeded');
  }
  if (fault === 'daily-limit') return apiError(403, 'Daily Limit Exceeded', 'PERMISSION_DENIED', 'dailyLimitExceeded');
  if (fault === 'permission-denied') {
    return apiError(403, 'This project does not have the access to Custom Search JSON API.', 'PERMISSION_DENIED', 'forbidden');
  }
  const num = Number(p.get('num') ?? '10');
  const start = Number(p.get('start') ?? '1');
  if (!p.get('cx') || num < 1 || num > 10 || start < 1 || start + num - 1 > 100) {
    return apiError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', 'invalid');
  }
  const q = p.get('q') ?? '';
  const hits = match(docs, q);
  const page = hits.slice(start - 1, start - 1 + num);
  const request = { title: `Google Custom Search - ${q}`, totalResults: String(hits.length), searchTerms: q, count: page.length, startIndex: start, inputEncoding: 'utf8', outputEncoding: 'utf8', safe: 'off', cx: p.get('cx') };
  const body: Record<string, unknown> = {
    kind: 'customsearch#search',
    url: { type: 'application/json', template: 'https://www.googleapis.com/customsearch/v1?q={searchTerms}&num={count?}&start={startIndex?}&cx={cx?}&key={key?}&alt=json' },
    queries: { request: [request] },
    context: { title: 'anwc stand-in' },
    searchInformation: { searchTime: 0.12, formattedSearchTime: '0.12', totalResults: String(hits.length), formattedTotalResults: String(hits.length) },
  };
  const next = start + num;
  if (next <= Math.min(hits.length, 100)) (body.queries as Record<string, unknown>).nextPage = [{ ...request, startIndex: next }];
  // No results: the API leaves `items` out rather than sending an empty list.
  if (page.length > 0) {
    body.items = page.map((d) => ({
      kind: 'customsearch#result',
      title: d.title,
      htmlTitle: d.title,
      link: d.url,
      displayLink: new URL(d.url).host,
      snippet: d.text.slice(0, 150),
      htmlSnippet: d.text.slice(0, 150),
      formattedUrl: d.url,
    }));
  }
  send(res, 200, body);
}

/** MediaWiki action API, GET /w/api.php?action=query&list=search&format=json&formatversion=2. */
function wikipedia({ u, req, res, docs, opts, fault, state }: Ctx): void {
  const p = u.searchParams;
  if (u.pathname !== '/w/api.php') return send(res, 404, 'Not Found', 'text/plain');
  // Wikimedia's User-Agent policy: requests without one are refused.
  if (!req.headers['user-agent']) {
    return send(res, 403, 'Please set a user-agent and respect our robot policy https://w.wiki/4wJS.', 'text/plain');
  }
  const servedby = 'mw-api-ext.codfw.main-0';
  if (fault === 'maxlag-once' && !state.once) {
    state.once = true;
    return send(res, 200, { error: { code: 'maxlag', info: 'Waiting for 10.64.48.35: 7 seconds lagged.', host: '10.64.48.35', lag: 7, type: 'db', docref: 'See https://en.wikipedia.org/w/api.php for API usage.' }, servedby }, 'application/json; charset=utf-8', { 'retry-after': '0', 'x-database-lag': '7' });
  }
  if (fault === 'quota') {
    return send(res, 200, { error: { code: 'ratelimited', info: "As an anti-abuse measure, you are limited from performing this action too many times in a short space of time, and you have exceeded this limit. Please try again in a few minutes.", docref: 'See https://en.wikipedia.org/w/api.php for API usage.' }, servedby });
  }
  if (p.get('action') !== 'query' || p.get('list') !== 'search' || p.get('format') !== 'json' || p.get('formatversion') !== '2') {
    return send(res, 200, { error: { code: 'badvalue', info: 'Unrecognized value for parameter "list".' }, servedby });
  }
  const q = p.get('srsearch') ?? '';
  if (!q) return send(res, 200, { error: { code: 'missingparam', info: 'The "srsearch" parameter must be set.' }, servedby });
  const limit = Math.min(Number(p.get('srlimit') ?? '10'), opts.pageSize ?? 500);
  const offset = Number(p.get('sroffset') ?? '0');
  const hits = match(docs, q);
  const page = hits.slice(offset, offset + limit);
  const body: Record<string, unknown> = { batchcomplete: true };
  if (offset + limit < hits.length) body.continue = { sroffset: offset + limit, continue: '-||' };
  body.query = {
    searchinfo: { totalhits: hits.length },
    search: page.map((d, i) => ({
      ns: 0,
      title: d.title,
      pageid: 1000 + offset + i,
      snippet: d.text.slice(0, 120).replace(new RegExp(`(${escapeRegExp(terms(q)[0] ?? '') || '^$'})`, 'i'), '<span class="searchmatch">$1</span>').replace(/&/g, '&amp;'),
    })),
  };
  send(res, 200, body);
}

/** SearXNG, GET /search?q=…&format=json&pageno=N. */
function searxng({ u, res, docs, opts, fault }: Ctx): void {
  const p = u.searchParams;
  if (u.pathname !== '/search') return send(res, 404, 'Not Found', 'text/html');
  if (fault === 'json-disabled' && p.get('format') === 'json') {
    return send(res, 403, '<!doctype html>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don\'t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n', 'text/html; charset=utf-8');
  }
  if (fault === 'quota') return send(res, 429, 'Too Many Requests', 'text/plain');
  if (p.get('format') !== 'json') return send(res, 200, '<html><body>results</body></html>', 'text/html');
  const q = p.get('q') ?? '';
  const size = opts.pageSize ?? 10;
  const pageno = Number(p.get('pageno') ?? '1');
  const hits = fault === 'engines-down' ? [] : match(docs, q);
  const page = hits.slice((pageno - 1) * size, pageno * size);
  send(res, 200, {
    query: q,
    number_of_results: hits.length,
    results: page.map((d, i) => ({
      url: d.url, title: d.title, content: d.text.slice(0, 150), engine: 'duckduckgo', engines: ['duckduckgo'],
      parsed_url: [new URL(d.url).protocol.slice(0, -1), new URL(d.url).host, new URL(d.url).pathname, '', '', ''],
      template: 'default.html', positions: [i + 1], score: 1 / (i + 1), category: 'general', publishedDate: null,
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: fault === 'engines-down' ? [['duckduckgo', 'timeout'], ['brave', 'too many requests']] : [],
  });
}

/** Brave Search API, GET /res/v1/web/search with X-Subscription-Token. */
function brave({ u, req, res, docs, opts, fault, state }: Ctx): void {
  const p = u.searchParams;
  const err = (status: number, code: string, detail: string, headers: Record<string, string> = {}) =>
    send(res, status, { type: 'ErrorResponse', error: { id: '6f1b3c2e-0000-4000-8000-000000000000', status, code, detail, meta: {} }, time: 1754364294 }, 'application/json', headers);
  if (u.pathname !== '/res/v1/web/search') return err(404, 'NOT_FOUND', 'Resource not found');
  if (req.headers['x-subscription-token'] !== opts.key) {
    return err(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.');
  }
  if (fault === 'quota') {
    return err(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 0', 'x-ratelimit-reset': '1, 86400' });
  }
  if (fault === 'rate-limited-once' && !state.once) {
    state.once = true;
    return err(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 1500', 'x-ratelimit-reset': '1, 86400' });
  }
  const count = Number(p.get('count') ?? '20');
  const offset = Number(p.get('offset') ?? '0');
  if (!p.get('q') || count < 1 || count > 20 || offset < 0 || offset > 9) return err(422, 'VALIDATION', 'Unable to validate request parameter(s)');
  const hits = match(docs, p.get('q') ?? '');
  const page = hits.slice(offset * count, (offset + 1) * count);
  const body: Record<string, unknown> = {
    type: 'search',
    query: { original: p.get('q'), show_strict_warning: false, is_navigational: false, more_results_available: (offset + 1) * count < hits.length },
    mixed: { type: 'mixed', main: page.map((_, i) => ({ type: 'web', index: i, all: false })), top: [], side: [] },
  };
  // Like the API, no `web` section when nothing matched.
  if (page.length > 0) {
    body.web = {
      type: 'search',
      results: page.map((d) => ({ title: d.title, url: d.url, description: `<strong>${d.text.slice(0, 60)}</strong>${d.text.slice(60, 150)}`, type: 'search_result', language: 'en', family_friendly: true, is_source_local: false, is_source_both: false })),
      family_friendly: true,
    };
  }
  send(res, 200, body, 'application/json', { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 1999', 'x-ratelimit-reset': '1, 86400' });
}

/** A corpus of `n` documents about the words given, for pagination tests. */
export function corpus(n: number, words: string, host = 'example.org'): StandinDoc[] {
  return Array.from({ length: n }, (_, i) => ({
    url: `https://${host}/doc/${i + 1}`,
    title: `Document ${i + 1} (${host})`,
    text: `${words} — page ${i + 1} of a test corpus, written as plain prose for the stand-in.`,
  }));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
