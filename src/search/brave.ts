import { UserError } from '../errors.js';
import { apiUrl, endpointUrl, getJsonWithBackoff, type JsonResponse } from './http.js';
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

const NAME = 'brave';
const ROOT = 'https://api.search.brave.com/';
/** Brave returns at most 20 results a request … */
const PAGE = 20;
/** … and `offset` counts pages of `count`, from 0 to 9. */
const MAX_OFFSET = 9;

/** The Brave Search API's web search (BRAVE_API_KEY, sent as X-Subscription-Token). */
export function braveProvider(config: ProviderConfig = {}): SearchProvider {
  const env = config.env ?? process.env;
  const key = env.BRAVE_API_KEY;
  if (!key) {
    throw new UserError('the brave provider needs BRAVE_API_KEY in the environment', {
      fix: 'create a key at https://api-dashboard.search.brave.com, or use --provider wikipedia (no key)',
    });
  }
  const api = apiUrl(config.endpoint ? endpointUrl(NAME, config.endpoint) : ROOT, 'res/v1/web/search');
  const timeoutMs = config.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  // The free plan allows one request a second: a second page usually meets a 1 s back-off.
  const retry = { retries: config.retries ?? 3, maxRetryWaitMs: config.maxRetryWaitMs ?? 10_000 };

  return {
    name: NAME,
    async search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]> {
      const list = new ResultList(opts.count);
      // One page size for every page, because offset counts pages, not results.
      const count = Math.min(PAGE, opts.count);
      for (let offset = 0; offset <= MAX_OFFSET && !list.full; offset++) {
        const url = new URL(api);
        url.searchParams.set('q', queryText(query.asked ?? query.words));
        url.searchParams.set('count', String(count));
        url.searchParams.set('offset', String(offset));
        const res = await getJsonWithBackoff(
          NAME,
          url,
          { headers: { 'x-subscription-token': key }, timeoutMs, signal: opts.signal, dispatcher: config.dispatcher, ...retry },
          backoff,
        );
        const body = checkAnswer(res);
        const web = isObject(body.web) ? body.web : undefined;
        // A query with no web results has no `web` section at all.
        const results = web && Array.isArray(web.results) ? web.results : [];
        for (const r of results) {
          if (isObject(r)) list.add(r.url, r.title, plainText(typeof r.description === 'string' ? r.description : ''));
        }
        const more = isObject(body.query) ? body.query.more_results_available : undefined;
        if (results.length < count || more === false) break;
      }
      return list.results;
    },
  };
}

/**
 * Brave's rate-limit headers list one value per window, shortest first ("1, 15000": per second,
 * per month). A 429 whose longest window still has requests left is the per-second limit: wait
 * for its reset. One whose longest window is spent is the plan's quota: no use waiting.
 */
function windows(res: JsonResponse): { remaining: number[]; reset: number[] } {
  const nums = (h: string | undefined) => (h ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isFinite(n));
  return { remaining: nums(res.headers['x-ratelimit-remaining']), reset: nums(res.headers['x-ratelimit-reset']) };
}

function quotaSpent(res: JsonResponse): boolean {
  const { remaining } = windows(res);
  return remaining.length > 1 && remaining[remaining.length - 1] === 0;
}

function backoff(res: JsonResponse): number | undefined {
  if (res.status !== 429 || quotaSpent(res)) return undefined;
  return windows(res).reset[0] ?? 1;
}

function errorCode(res: JsonResponse): string {
  const error = isObject(res.json) && isObject(res.json.error) ? res.json.error : undefined;
  return error && typeof error.code === 'string' ? error.code : '';
}

function checkAnswer(res: JsonResponse): Record<string, unknown> {
  const code = errorCode(res);
  if (res.status === 429 || code === 'RATE_LIMITED' || code === 'QUOTA_LIMITED') {
    const { reset } = windows(res);
    const spent = quotaSpent(res) || code === 'QUOTA_LIMITED';
    throw new SearchQuotaError(NAME, spent ? "the plan's query quota is spent" : 'Brave keeps rate-limiting anwc', {
      retryAfterSeconds: spent ? reset[reset.length - 1] : reset[0],
      fix: 'seeding stops here and keeps what it found; run anwc seed again after the limit resets',
    });
  }
  if (res.status === 401 || res.status === 403 || code === 'SUBSCRIPTION_TOKEN_INVALID') {
    throw new SearchAuthError(NAME, `BRAVE_API_KEY was refused (HTTP ${res.status}${code ? ` ${code}` : ''})`, {
      fix: 'check the key in the Brave Search API dashboard, and that its plan includes web search',
    });
  }
  if (res.status >= 500) {
    throw new SearchUnavailableError(NAME, `Brave answered HTTP ${res.status}`, { fix: 'try again later' });
  }
  if (!isObject(res.json)) {
    throw new SearchResponseError(NAME, `the answer is not JSON (HTTP ${res.status})`, {
      fix: 'check that --search-endpoint points at the Brave Search API root',
    });
  }
  if (res.status !== 200) {
    throw new SearchResponseError(NAME, `Brave rejected the request (HTTP ${res.status}${code ? ` ${code}` : ''})`, {});
  }
  return res.json;
}
