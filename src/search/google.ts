import { customsearch, type customsearch_v1 } from '@googleapis/customsearch';
import { fetch as undiciFetch } from 'undici';
import { UserError } from '../errors.js';
import { endpointUrl } from './http.js';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  SearchAuthError,
  SearchQuotaError,
  SearchResponseError,
  SearchUnavailableError,
  type ProviderConfig,
  type SearchOptions,
  type SearchProvider,
  type SearchQuery,
  type SearchResult,
} from './provider.js';
import { queryText } from './query.js';
import { ResultList, isObject, plainText } from './results.js';

const NAME = 'google';
/** The API returns at most 10 results a request … */
const PAGE = 10;
/** … and none past the 100th (start + num - 1 ≤ 100). */
const MAX_RESULTS = 100;
const OTHERS = 'use --provider wikipedia (no key), brave (BRAVE_API_KEY), searxng (your own instance) or file';

/**
 * Google's Custom Search JSON API, the thesis's original seed source, through the googleapis
 * client. The API is closed to new customers and ends on 2027-01-01, so this provider serves
 * existing keys; its errors say so and name the other providers.
 */
export function googleProvider(config: ProviderConfig = {}): SearchProvider {
  const env = config.env ?? process.env;
  const key = env.GOOGLE_API_KEY;
  const cx = env.GOOGLE_CSE_ID;
  const missing = [key ? '' : 'GOOGLE_API_KEY', cx ? '' : 'GOOGLE_CSE_ID'].filter(Boolean);
  if (missing.length > 0 || !key || !cx) {
    throw new UserError(`the google provider needs ${missing.join(' and ')} in the environment`, {
      fix: `set the Custom Search API key and the Programmable Search Engine ID, or ${OTHERS}`,
    });
  }
  const rootUrl = config.endpoint ? endpointUrl(NAME, config.endpoint) : undefined;
  const timeout = config.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const client = customsearch({ version: 'v1' });
  // The same HTTP client as the other providers and the fetcher (--resolve, the address policy),
  // instead of the library's own.
  const dispatcher = config.dispatcher;
  const fetchImplementation = dispatcher
    ? ((input: unknown, init?: object) => undiciFetch(input as string, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch
    : undefined;

  return {
    name: NAME,
    async search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]> {
      const want = Math.min(opts.count, MAX_RESULTS);
      const list = new ResultList(want);
      const q = queryText(query.asked ?? query.words);
      let start = 1;
      while (!list.full && start <= MAX_RESULTS) {
        const num = Math.min(PAGE, want - list.results.length, MAX_RESULTS - start + 1);
        let data: unknown;
        try {
          // Per call, so that a path prefix in the endpoint is kept (the client's global
          // rootUrl keeps only the origin); retry off, so a quota error is not retried away.
          const res = await client.cse.list(
            { q, cx, key, num, start },
            { rootUrl, timeout, retry: false, signal: opts.signal, ...(fetchImplementation ? { fetchImplementation } : {}) },
          );
          data = res.data as unknown;
        } catch (err) {
          if (opts.signal?.aborted) throw opts.signal.reason;
          throw googleError(err, timeout);
        }
        if (!isObject(data)) {
          throw new SearchResponseError(NAME, 'the answer is not a JSON object', {
            fix: 'check that --search-endpoint points at the Custom Search API root',
          });
        }
        const search = data as customsearch_v1.Schema$Search;
        // A search with no results omits `items` altogether.
        const items = search.items ?? [];
        if (!Array.isArray(items)) throw new SearchResponseError(NAME, 'items is not a list', {});
        for (const item of items) list.add(item.link, item.title, plainText(item.snippet ?? ''));
        if (items.length < num || !search.queries?.nextPage?.length) break;
        start += num;
      }
      return list.results;
    },
  };
}

interface ApiError {
  status?: number;
  reasons: string[];
  message: string;
}

/** Reads a gaxios error: the status and every reason the API gave (old `errors[].reason`,
 * new `status` and `details[].reason`), never its URL, which holds the key. */
function readError(err: unknown): ApiError | undefined {
  if (!isObject(err)) return undefined;
  const response = isObject(err.response) ? err.response : undefined;
  if (!response) return undefined;
  const status = typeof response.status === 'number' ? response.status : undefined;
  const data = response.data;
  const error = isObject(data) && isObject(data.error) ? data.error : {};
  const reasons: string[] = [];
  for (const list of [error.errors, error.details]) {
    if (!Array.isArray(list)) continue;
    for (const e of list) if (isObject(e) && typeof e.reason === 'string') reasons.push(e.reason);
  }
  if (typeof error.status === 'string') reasons.push(error.status);
  return { status, reasons, message: typeof error.message === 'string' ? error.message : '' };
}

function googleError(err: unknown, timeoutMs: number): Error {
  const api = readError(err);
  if (!api) {
    const code = isObject(err) && typeof err.code === 'string' ? err.code : '';
    const timedOut = /timeout|abort/i.test(code) || (err instanceof Error && /timeout|aborted/i.test(err.name + err.message));
    return new SearchUnavailableError(NAME, timedOut ? `no answer within ${timeoutMs} ms` : `cannot reach the Custom Search API${code ? ` (${code})` : ''}`, {
      fix: 'check the network and --search-endpoint, or try again later',
    });
  }
  const has = (...r: string[]) => api.reasons.some((x) => r.includes(x));
  if (api.status === 429 || has('rateLimitExceeded', 'dailyLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'RATE_LIMIT_EXCEEDED', 'RESOURCE_EXHAUSTED')) {
    return new SearchQuotaError(NAME, 'the Custom Search query quota is spent', {
      fix: `seeding stops here and keeps what it found; the daily quota resets at midnight Pacific time, or ${OTHERS}`,
    });
  }
  if (has('keyInvalid', 'API_KEY_INVALID') || /API key not valid/i.test(api.message)) {
    return new SearchAuthError(NAME, 'GOOGLE_API_KEY is not a valid API key', {
      fix: 'copy the key again from the Google Cloud console (APIs & Services > Credentials)',
    });
  }
  if (api.status === 403 && (has('PERMISSION_DENIED') || /does not have the access/i.test(api.message))) {
    return new SearchAuthError(NAME, "this key's project has no access to the Custom Search JSON API", {
      fix: `the API is closed to new customers (it ends on 2027-01-01); ${OTHERS}`,
    });
  }
  if (api.status === 403) {
    return new SearchAuthError(NAME, 'the Custom Search API refused the key (HTTP 403)', {
      fix: `enable the Custom Search API for the key's project, if it still has access; or ${OTHERS}`,
    });
  }
  if (api.status === 400) {
    return new SearchAuthError(NAME, 'the Custom Search API rejected the request (HTTP 400)', {
      fix: 'check GOOGLE_CSE_ID: it is the Programmable Search Engine ID (the cx value)',
    });
  }
  if (api.status !== undefined && api.status >= 500) {
    return new SearchUnavailableError(NAME, `the Custom Search API answered HTTP ${api.status}`, { fix: 'try again later' });
  }
  return new SearchResponseError(NAME, `unexpected answer (HTTP ${api.status ?? '?'})`, {
    fix: 'check that --search-endpoint points at the Custom Search API root',
  });
}
