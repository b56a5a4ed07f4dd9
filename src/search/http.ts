import { request, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { SearchAuthError, SearchQuotaError, SearchResponseError, SearchUnavailableError } from './provider.js';
import { isObject } from './results.js';

/** What a provider gets back: the status, headers and the body parsed as JSON when it was JSON. */
export interface JsonResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** The parsed body, or undefined when the body was not JSON (see `text`). */
  json: unknown;
  text: string;
}

export interface GetJsonOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** Search answers are small; a bigger body is a misconfigured endpoint, not results. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * GET a JSON API. Any status comes back as a value (each API has its own error shapes, read by
 * its provider); only a failure to get an answer at all — refused, reset, timed out, too big —
 * throws, as SearchUnavailableError. A cancellation by the caller's signal rethrows its reason,
 * so Ctrl-C stays Ctrl-C.
 */
export async function getJson(provider: string, url: URL, opts: GetJsonOptions): Promise<JsonResponse> {
  // One deadline for the whole exchange: undici's header/body timeouts alone reset on every
  // chunk, so a server that drips a byte a second would never time out.
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...opts.headers },
      signal,
      dispatcher: opts.dispatcher,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new SearchUnavailableError(provider, `the answer from ${where(url)} is larger than ${maxBytes} bytes`, {
          fix: 'check that --search-endpoint points at the search API itself',
        });
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return { status: res.statusCode, headers: flatHeaders(res.headers), json: parseJson(text), text };
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof SearchUnavailableError) throw err;
    if (deadline.aborted) {
      throw new SearchUnavailableError(provider, `no answer from ${where(url)} within ${opts.timeoutMs} ms`, {
        fix: 'try again later, or give a longer --search-timeout',
      });
    }
    const code = (err as { code?: string }).code;
    throw new SearchUnavailableError(provider, `cannot reach ${where(url)}${code ? ` (${code})` : ''}`, {
      fix: 'check the network and --search-endpoint, or try again later',
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The endpoint as it may appear in a message: origin and path, never the query string, which
 * carries keys (Google's `key=`, `cx=`) on some APIs.
 */
export function where(url: URL | string): string {
  const u = typeof url === 'string' ? new URL(url) : url;
  return `${u.origin}${u.pathname}`;
}

/** Retry-After as seconds (RFC 9110: delay-seconds or an HTTP-date), or undefined. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Waits, unless the caller cancels first. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return;
  await sleep(ms, undefined, { signal });
}

/** Joins an endpoint root (with or without a path prefix) and an API path. */
export function apiUrl(root: string, path: string): URL {
  const base = root.endsWith('/') ? root : `${root}/`;
  return new URL(path.replace(/^\/+/, ''), base);
}

export interface RetryOptions {
  retries: number;
  maxRetryWaitMs: number;
}

/**
 * GETs, and when `backoff` says the answer is a short announced wait (seconds), waits it out and
 * asks again, up to `retries` times and never longer than `maxRetryWaitMs` per wait. Returns the
 * last answer either way: its provider turns it into the right error.
 */
export async function getJsonWithBackoff(
  provider: string,
  url: URL,
  opts: GetJsonOptions & RetryOptions,
  backoff: (res: JsonResponse) => number | undefined,
): Promise<JsonResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await getJson(provider, url, opts);
    const wait = backoff(res);
    if (wait === undefined || attempt >= opts.retries || wait * 1000 > opts.maxRetryWaitMs) return res;
    await pause(wait * 1000, opts.signal);
  }
}

/** Checks a `--search-endpoint` value: an absolute http(s) URL. */
export function endpointUrl(provider: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UserError(`${provider}: --search-endpoint is not a URL`, {
      value,
      fix: 'give an absolute URL such as http://localhost:8888/',
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UserError(`${provider}: --search-endpoint must be an http or https URL`, { value, fix: 'give an absolute URL such as http://localhost:8888/' });
  }
  // A query string would be lost when the API path is joined; credentials do not belong here.
  u.search = '';
  u.hash = '';
  return u.href;
}

/** What a provider says to the user for each way an answer can fail before its body is read. */
export interface AnswerTexts {
  /** HTTP 403: who refused and why, with the fix. */
  refused: { message: string; fix: string };
  /** HTTP 429: a quota stop, with the fix. */
  limited: { message: string; fix: string };
  /** Names the server in "… answered HTTP 5xx". */
  server: string;
  unavailableFix: string;
  /** Where --search-endpoint should point, when the answer is not JSON. */
  notJsonFix: string;
}

/**
 * The checks every JSON search API shares: 403 refused, 429 limited (a quota stop that keeps what
 * was found), 5xx unavailable, a body that is not a JSON object. Returns that object.
 */
export function checkJsonAnswer(provider: string, res: JsonResponse, t: AnswerTexts): Record<string, unknown> {
  if (res.status === 403) throw new SearchAuthError(provider, t.refused.message, { fix: t.refused.fix });
  if (res.status === 429) {
    throw new SearchQuotaError(provider, t.limited.message, { retryAfterSeconds: retryAfterSeconds(res.headers['retry-after']), fix: t.limited.fix });
  }
  if (res.status >= 500) {
    throw new SearchUnavailableError(provider, `${t.server} answered HTTP ${res.status}`, { fix: t.unavailableFix });
  }
  if (!isObject(res.json)) {
    throw new SearchResponseError(provider, `the answer is not JSON (HTTP ${res.status})`, { fix: t.notJsonFix });
  }
  return res.json;
}
