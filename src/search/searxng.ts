import { UserError } from '../errors.js';
import { apiUrl, checkJsonAnswer, endpointUrl, getJsonWithBackoff, retryAfterSeconds, type JsonResponse } from './http.js';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
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

const NAME = 'searxng';
/** SearXNG pages hold what its engines returned (10–30); ten pages is far past any seed count. */
const MAX_PAGES = 10;

/**
 * A SearXNG metasearch instance the user runs (`/search?format=json`). There is no default:
 * public instances disable the JSON format to keep bots off, so seeding needs the user's own.
 */
export function searxngProvider(config: ProviderConfig = {}): SearchProvider {
  if (!config.endpoint) {
    throw new UserError('the searxng provider needs --search-endpoint, the URL of your SearXNG instance', {
      fix: 'run SearXNG with the json format enabled and give e.g. --search-endpoint http://localhost:8888/',
    });
  }
  const api = apiUrl(endpointUrl(NAME, config.endpoint), 'search');
  const timeoutMs = config.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const userAgent = config.userAgent ?? DEFAULT_USER_AGENT;
  const retry = { retries: config.retries ?? 2, maxRetryWaitMs: config.maxRetryWaitMs ?? 10_000 };

  return {
    name: NAME,
    async search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]> {
      const list = new ResultList(opts.count);
      for (let pageno = 1; pageno <= MAX_PAGES && !list.full; pageno++) {
        const url = new URL(api);
        url.searchParams.set('q', queryText(query.asked ?? query.words));
        url.searchParams.set('format', 'json');
        url.searchParams.set('pageno', String(pageno));
        const res = await getJsonWithBackoff(
          NAME,
          url,
          { headers: { 'user-agent': userAgent }, timeoutMs, signal: opts.signal, dispatcher: config.dispatcher, ...retry },
          (r) => (r.status === 429 || r.status === 503 ? retryAfterSeconds(r.headers['retry-after']) : undefined),
        );
        const body = checkAnswer(res);
        const results = body.results;
        if (!Array.isArray(results)) {
          throw new SearchResponseError(NAME, 'the answer has no results list', {
            fix: 'check that --search-endpoint is the root of a SearXNG instance',
          });
        }
        if (pageno === 1 && results.length === 0) failedEngines(body);
        let added = 0;
        for (const r of results) {
          if (isObject(r) && list.add(r.url, r.title, plainText(typeof r.content === 'string' ? r.content : ''))) added++;
        }
        // A page past the last one comes back empty or repeats what was seen.
        if (added === 0) break;
      }
      return list.results;
    },
  };
}

function checkAnswer(res: JsonResponse): Record<string, unknown> {
  const json = checkJsonAnswer(NAME, res, {
    refused: { message: 'the instance refused format=json (HTTP 403)', fix: 'enable JSON in its settings.yml (search: formats: [html, json]) and restart it' },
    limited: { message: "the instance's limiter is blocking anwc (HTTP 429)", fix: 'on your own instance set server.limiter: false in settings.yml, or wait; what was found is kept' },
    server: 'the instance',
    unavailableFix: 'check its log, or try again later',
    notJsonFix: 'check that --search-endpoint is the root of a SearXNG instance',
  });
  if (res.status !== 200) {
    throw new SearchResponseError(NAME, `unexpected HTTP ${res.status}`, { fix: 'check --search-endpoint' });
  }
  return json;
}

/**
 * No results and every engine listed as unresponsive means the instance could not search at all
 * (its engines blocked or timed out), which is not the same as "nothing matches".
 */
function failedEngines(body: Record<string, unknown>): void {
  const unresponsive = Array.isArray(body.unresponsive_engines) ? body.unresponsive_engines : [];
  if (unresponsive.length === 0) return;
  const names = unresponsive.map((e) => (Array.isArray(e) ? `${String(e[0])}: ${String(e[1] ?? '')}` : String(e)));
  throw new SearchUnavailableError(NAME, `no results, and its engines did not answer (${names.join('; ')})`, {
    fix: "check the instance's engines, or try again later",
  });
}
