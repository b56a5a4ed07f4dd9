import { UserError } from '../errors.js';
import { apiUrl, checkJsonAnswer, endpointUrl, getJsonWithBackoff, retryAfterSeconds, type JsonResponse } from './http.js';
import {
  DEFAULT_SEARCH_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  DEFAULT_WIKI,
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

const NAME = 'wikipedia';
/** MediaWiki's srlimit ceiling for clients without the apihighlimits right. */
const MAX_PAGE = 500;
/** CirrusSearch refuses offsets past 10 000. */
const MAX_OFFSET = 10_000;

/**
 * The MediaWiki search API (list=search): no key, and its results are encyclopaedia articles,
 * which is prose. `--wiki en` picks https://en.wikipedia.org; a host name (en.wikisource.org)
 * picks any Wikimedia wiki. `--search-endpoint` replaces the site root for a mirror or a
 * self-hosted MediaWiki in the standard layout: the API at /w/api.php, articles at /wiki/Title.
 */
export function wikipediaProvider(config: ProviderConfig = {}): SearchProvider {
  const root = config.endpoint ? endpointUrl(NAME, config.endpoint) : `https://${wikiHost(config.wiki ?? DEFAULT_WIKI)}/`;
  const api = apiUrl(root, 'w/api.php');
  const articles = apiUrl(root, 'wiki/');
  const timeoutMs = config.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const userAgent = config.userAgent ?? DEFAULT_USER_AGENT;
  const retry = { retries: config.retries ?? 2, maxRetryWaitMs: config.maxRetryWaitMs ?? 30_000 };

  return {
    name: NAME,
    async search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]> {
      const list = new ResultList(opts.count);
      const text = queryText(query.asked ?? query.words);
      let cont: Record<string, string> = {};
      while (!list.full) {
        const url = new URL(api);
        const params: Record<string, string> = {
          action: 'query',
          list: 'search',
          srsearch: text,
          srnamespace: '0',
          srlimit: String(Math.min(MAX_PAGE, opts.count - list.results.length)),
          srprop: 'snippet',
          format: 'json',
          formatversion: '2',
          // Wikimedia asks automated clients to back off when its replicas lag.
          maxlag: '5',
          ...cont,
        };
        for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
        const res = await getJsonWithBackoff(NAME, url, { headers: { 'user-agent': userAgent }, timeoutMs, signal: opts.signal, dispatcher: config.dispatcher, ...retry }, backoff);
        const body = checkAnswer(res);
        const query = body.query;
        const hits = isObject(query) ? query.search : undefined;
        if (!Array.isArray(hits)) {
          throw new SearchResponseError(NAME, 'the answer has no query.search list', {
            fix: 'check that --search-endpoint points at a MediaWiki site root',
          });
        }
        for (const hit of hits) {
          if (!isObject(hit) || typeof hit.title !== 'string') continue;
          list.add(articleUrl(articles, hit.title), hit.title, plainText(typeof hit.snippet === 'string' ? hit.snippet : ''));
        }
        const next = isObject(body.continue) ? body.continue : undefined;
        if (!next || hits.length === 0 || Number(next.sroffset) >= MAX_OFFSET) break;
        // MediaWiki asks clients to send the whole continue object back, not only sroffset.
        cont = Object.fromEntries(Object.entries(next).map(([k, v]) => [k, String(v)]));
      }
      return list.results;
    },
  };
}

/** The wait MediaWiki announces for maxlag (HTTP 200 + error) and for 429/503 (Retry-After). */
function backoff(res: JsonResponse): number | undefined {
  const after = retryAfterSeconds(res.headers['retry-after']);
  const code = isObject(res.json) && isObject(res.json.error) ? res.json.error.code : undefined;
  if (code === 'maxlag') return after ?? 5;
  if (res.status === 429 || res.status === 503) return after;
  return undefined;
}

function checkAnswer(res: JsonResponse): Record<string, unknown> {
  const json = checkJsonAnswer(NAME, res, {
    refused: {
      message: 'the wiki refused the request (HTTP 403)',
      fix: "Wikimedia blocks clients without a descriptive User-Agent: give --user-agent 'name/version (contact URL or email)'",
    },
    limited: { message: 'the wiki is rate-limiting anwc (HTTP 429)', fix: 'wait a few minutes and run anwc seed again; what was found is kept' },
    server: 'the wiki',
    unavailableFix: 'try again later',
    notJsonFix: 'check that --search-endpoint points at a MediaWiki site root',
  });
  const error = json.error;
  if (isObject(error)) {
    const code = String(error.code ?? 'unknown');
    const info = typeof error.info === 'string' ? error.info : '';
    if (code === 'maxlag') {
      throw new SearchUnavailableError(NAME, 'the wiki is lagging and asked clients to wait (maxlag)', { fix: 'try again in a few minutes' });
    }
    if (code === 'ratelimited') {
      throw new SearchQuotaError(NAME, 'the wiki is rate-limiting anwc (ratelimited)', {
        fix: 'wait a few minutes and run anwc seed again; what was found is kept',
      });
    }
    if (code.startsWith('internal_api_error')) {
      throw new SearchUnavailableError(NAME, `the wiki failed internally (${code})`, { fix: 'try again later' });
    }
    throw new SearchResponseError(NAME, `the wiki refused the search: ${code}${info ? ` (${info})` : ''}`, {
      fix: 'check --wiki and --search-endpoint',
    });
  }
  if (res.status !== 200) {
    throw new SearchResponseError(NAME, `unexpected HTTP ${res.status}`, { fix: 'check --wiki and --search-endpoint' });
  }
  return json;
}

/** `en` → en.wikipedia.org; a name with a dot is taken as the wiki's host itself. */
export function wikiHost(wiki: string): string {
  const w = wiki.trim().toLowerCase();
  if (/^[a-z][a-z0-9-]{0,30}$/.test(w)) return `${w}.wikipedia.org`;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(w)) return w;
  throw new UserError('--wiki is not a language code or a wiki host', {
    value: wiki,
    fix: 'give a language code such as en or de, or a host such as en.wikisource.org',
  });
}

/**
 * The article URL MediaWiki itself links: spaces become underscores, and the title is
 * percent-encoded as MediaWiki's wfUrlencode does (`:` `/` `,` `;` `@` `$` stay readable,
 * `'` is %27), so a seed equals the link the crawler later finds on the wiki's own pages.
 */
export function articleUrl(base: URL, title: string): string {
  const encoded = encodeURIComponent(title.replace(/ /g, '_'))
    .replace(/'/g, '%27')
    .replace(/%(3A|2F|2C|3B|40|24)/gi, (m) => decodeURIComponent(m));
  // Concatenated, not resolved: a title such as "Re:Zero" would otherwise read as a URL scheme.
  return base.href + encoded;
}
