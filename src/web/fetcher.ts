import { Agent, request } from 'undici';
import type { Readable } from 'node:stream';
import { decodeText, detectEncoding } from '../html/decode.js';
import { AddressPolicy, type LookupFn } from './address.js';
import type { Mapping } from './resolve-mappings.js';
import { readBody } from './body.js';
import { guardedConnector } from './connector.js';
import { accepts, DEFAULT_ACCEPT, looksBinary } from './content-type.js';
import { classifyNetworkError } from './net-errors.js';
import type { Answer, FailureKind, FetchFailed, FetchOutcome, Headers, Hop } from './outcome.js';
import { FETCH_DEFAULTS } from './defaults.js';
import { normalizeUrl } from './url.js';
import { userAgentHeader } from './user-agent.js';

/**
 * The HTTP fetcher: one undici Agent (connections reused per origin), every connection through
 * the address check, redirects followed by hand so each hop is checked again, bodies read under
 * caps. Each call ends in one FetchOutcome; network trouble never throws.
 */

export { FETCH_DEFAULTS };

export interface FetcherOptions {
  /** Product token and version, e.g. `anwc/0.1`. */
  userAgent?: string;
  /** URL (or mailto:) that tells a webmaster who runs this crawler. */
  contact?: string;
  /** Sent as the From header when given (an e-mail address). */
  from?: string;
  /** `HOST:ADDR` mappings used instead of DNS and trusted even when private. */
  resolve?: readonly string[] | readonly Mapping[];
  allowPrivate?: boolean;
  lookup?: LookupFn;
  /** Whole fetch, redirects included. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Bytes read from the wire per response. */
  maxBytes?: number;
  /** Bytes kept after gzip/deflate/br decoding. */
  maxDecodedBytes?: number;
  maxRatio?: number;
  maxRedirects?: number;
  maxUrlLength?: number;
  accept?: readonly string[];
  connectionsPerOrigin?: number;
  /** Keep bodies that look binary (an archiver keeps images); by default such a body under a text type is refused. */
  binary?: boolean;
}

export type UrlVerdict = { allowed: true } | { allowed: false; failure: 'robots' | 'scope'; detail: string };

export interface FetchRequest {
  method?: 'GET' | 'HEAD';
  /** The page the link was found on. */
  referer?: string;
  /** Validators from a stored copy: a 304 answer becomes `not-modified`. */
  validators?: { etag?: string; lastModified?: string };
  /** Asked about every redirect target before it is requested (scope, robots). */
  allowUrl?: (url: string) => UrlVerdict | Promise<UrlVerdict>;
  accept?: readonly string[];
  maxBytes?: number;
  maxRedirects?: number;
  /**
   * Decode the body to text as decodeHtml does (default true). Without it the charset is still
   * told, and the fetch holds the body's bytes alone: the text can take twice their room.
   */
  decode?: boolean;
  /** Skip the binary-body sniff (robots.txt and other non-page files). */
  sniff?: boolean;
  /**
   * Told of every answer that is not the page: each redirect hop, a 304, an error status. Only
   * when it is given are their bodies read (within the byte cap); otherwise they are dropped.
   */
  onAnswer?: (answer: Answer) => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class Fetcher {
  readonly userAgent: string;
  readonly policy: AddressPolicy;
  private readonly opts: Required<Omit<FetcherOptions, 'userAgent' | 'contact' | 'from' | 'resolve' | 'allowPrivate' | 'lookup'>>;
  private readonly from?: string;
  private readonly agent: Agent;

  constructor(options: FetcherOptions = {}) {
    this.userAgent = userAgentHeader(options.userAgent, options.contact);
    this.from = options.from;
    this.policy = new AddressPolicy({ resolve: options.resolve, allowPrivate: options.allowPrivate, lookup: options.lookup });
    this.opts = {
      timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs ?? FETCH_DEFAULTS.headersTimeoutMs,
      maxBytes: options.maxBytes ?? FETCH_DEFAULTS.maxBytes,
      maxDecodedBytes: options.maxDecodedBytes ?? options.maxBytes ?? FETCH_DEFAULTS.maxDecodedBytes,
      maxRatio: options.maxRatio ?? FETCH_DEFAULTS.maxRatio,
      maxRedirects: options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
      maxUrlLength: options.maxUrlLength ?? FETCH_DEFAULTS.maxUrlLength,
      accept: options.accept ?? DEFAULT_ACCEPT,
      connectionsPerOrigin: options.connectionsPerOrigin ?? FETCH_DEFAULTS.connectionsPerOrigin,
      binary: options.binary ?? false,
    };
    this.agent = new Agent({
      connect: guardedConnector(this.policy, { timeout: this.opts.connectTimeoutMs }),
      connections: this.opts.connectionsPerOrigin,
      headersTimeout: this.opts.headersTimeoutMs,
      bodyTimeout: this.opts.timeoutMs,
    });
  }

  async fetch(rawUrl: string, req: FetchRequest = {}): Promise<FetchOutcome> {
    const method = req.method ?? 'GET';
    const startMs = Date.now();
    const t0 = performance.now();
    const redirects: Hop[] = [];
    const maxRedirects = req.maxRedirects ?? this.opts.maxRedirects;
    const elapsed = () => Math.round((performance.now() - t0) * 10) / 10;
    const first = normalizeUrl(rawUrl, undefined, { maxLength: this.opts.maxUrlLength });
    const url = first.ok ? first.url : rawUrl;
    let current = url;
    let headersMs: number | undefined;
    const fail = (failure: FailureKind, detail: string, extra: Partial<FetchFailed> = {}): FetchFailed => ({
      kind: 'failed', failure, detail, method, url, finalUrl: current, redirects,
      timing: { startMs, headersMs, totalMs: elapsed() }, ...extra,
    });
    if (!first.ok) return fail('bad-url', first.detail);

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.opts.timeoutMs);
    let status: number | undefined;
    let headers: Headers | undefined;
    try {
      const seen = new Set<string>([current]);
      const sent = this.requestHeaders(req);
      for (;;) {
        const res = await request(current, {
          dispatcher: this.agent,
          method,
          headers: sent,
          signal: controller.signal,
        });
        headersMs = elapsed();
        status = res.statusCode;
        headers = flattenHeaders(res.headers);
        const location = headers.location;
        if (REDIRECTS.has(status) && location !== undefined) {
          await this.answered(res.body, { method, url: current, status, headers, requestHeaders: sent, at: Math.round(startMs + headersMs) }, req);
          redirects.push({ url: current, status });
          const next = normalizeUrl(location, current, { maxLength: this.opts.maxUrlLength });
          if (!next.ok) return fail('bad-url', `redirect to ${JSON.stringify(location)}: ${next.detail}`, { status, headers });
          if (seen.has(next.url)) return fail('redirect-loop', `${next.url} again after ${redirects.length} redirects`, { status, headers });
          if (redirects.length > maxRedirects) {
            return fail('too-many-redirects', `more than ${maxRedirects} redirects`, { status, headers });
          }
          const verdict = req.allowUrl ? await req.allowUrl(next.url) : ({ allowed: true } as const);
          if (!verdict.allowed) return fail(verdict.failure, `redirect to ${next.url}: ${verdict.detail}`, { status, headers });
          seen.add(next.url);
          current = next.url;
          continue;
        }
        return await this.finish(res.body, status, headers, req, method, { url, current, redirects, startMs, headersMs, elapsed, fail, sent });
      }
    } catch (err) {
      const { failure, detail } = classifyNetworkError(err, timedOut);
      return fail(failure, detail, status === undefined ? {} : { status, headers });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * An answer that is not the page: its body read for `req.onAnswer` when there is one (within
   * the byte cap; what a broken connection left is kept, marked truncated), else dropped.
   */
  private async answered(
    body: Readable & { dump(o?: { limit: number }): Promise<void> },
    answer: Omit<Answer, 'body' | 'truncated'>,
    req: FetchRequest,
  ): Promise<void> {
    if (!req.onAnswer) {
      // A small read keeps the connection reusable; a large body is not worth it.
      await body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return;
    }
    let read: { body: Uint8Array; truncated: boolean } = { body: new Uint8Array(0), truncated: true };
    if (answer.method === 'HEAD' || answer.status === 304) {
      await body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      read = { body: new Uint8Array(0), truncated: false };
    } else {
      const maxBytes = req.maxBytes ?? this.opts.maxDecodedBytes;
      const r = await readBody(body, answer.headers['content-encoding'], { maxWireBytes: req.maxBytes ?? this.opts.maxBytes, maxBytes, maxRatio: this.opts.maxRatio }).catch(() => undefined);
      if (r?.ok) read = { body: r.body, truncated: r.truncated };
    }
    req.onAnswer({ ...answer, ...read });
  }

  private requestHeaders(req: FetchRequest): Record<string, string> {
    const h: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: acceptHeader(req.accept ?? this.opts.accept),
      'accept-encoding': 'gzip, deflate, br',
    };
    if (this.from) h.from = this.from;
    if (req.referer) h.referer = req.referer;
    if (req.validators?.etag) h['if-none-match'] = req.validators.etag;
    if (req.validators?.lastModified) h['if-modified-since'] = req.validators.lastModified;
    return h;
  }

  private async finish(
    body: Readable & { dump(o?: { limit: number }): Promise<void> },
    status: number,
    headers: Headers,
    req: FetchRequest,
    method: 'GET' | 'HEAD',
    ctx: {
      url: string; current: string; redirects: Hop[]; startMs: number; headersMs: number;
      elapsed: () => number; fail: (f: FailureKind, d: string, e?: Partial<FetchFailed>) => FetchFailed; sent: Headers;
    },
  ): Promise<FetchOutcome> {
    const common = { method, url: ctx.url, finalUrl: ctx.current, redirects: ctx.redirects };
    const timing = () => ({ startMs: ctx.startMs, headersMs: ctx.headersMs, totalMs: ctx.elapsed() });
    const contentType = headers['content-type'] ?? null;
    if (status < 200 || status >= 300) {
      await this.answered(body, { method, url: ctx.current, status, headers, requestHeaders: ctx.sent, at: Math.round(ctx.startMs + ctx.headersMs) }, req);
      if (status === 304) return { kind: 'not-modified', status, headers, ...common, timing: timing() };
      return { kind: 'http-error', status, headers, contentType, ...common, timing: timing() };
    }
    if (method === 'HEAD') {
      await body.dump({ limit: 0 }).catch(() => undefined);
      return {
        kind: 'ok', status, headers, contentType, body: new Uint8Array(0), bytes: 0, wireBytes: 0, truncated: false,
        requestHeaders: ctx.sent, ...common, timing: timing(),
      };
    }
    const accept = req.accept ?? this.opts.accept;
    if (!accepts(accept, contentType)) {
      discard(body);
      return ctx.fail('bad-content-type', `${contentType} is not one of ${accept.join(', ')}`, { status, headers });
    }
    const maxWire = req.maxBytes ?? this.opts.maxBytes;
    const read = await readBody(body, headers['content-encoding'], {
      maxWireBytes: maxWire,
      maxBytes: req.maxBytes ?? this.opts.maxDecodedBytes,
      maxRatio: this.opts.maxRatio,
    }, headers['content-length']);
    if (!read.ok) return ctx.fail(read.failure, read.detail, { status, headers });
    if (req.sniff !== false && !this.opts.binary && looksBinary(read.body)) {
      return ctx.fail('bad-content-type', `declared ${contentType ?? 'no type'} but the body is binary`, { status, headers });
    }
    const encoding = detectEncoding(read.body, contentType);
    return {
      kind: 'ok', status, headers, contentType,
      ...(req.decode === false ? {} : { text: decodeText(read.body, encoding) }), charset: encoding.charset, charsetSource: encoding.source,
      body: read.body, bytes: read.body.length, wireBytes: read.wireBytes, truncated: read.truncated,
      requestHeaders: ctx.sent, ...common, timing: timing(),
    };
  }

  /** Closes pooled connections; in-flight fetches end as failures. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** The accepted types first; anything else at low weight, since servers that ignore Accept are common and the gate decides. */
function acceptHeader(types: readonly string[]): string {
  return types.includes('*/*') ? types.join(', ') : `${types.join(', ')}, */*;q=0.1`;
}

/** Drops a body we will not read; the connection goes with it, which is cheaper than reading it. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

