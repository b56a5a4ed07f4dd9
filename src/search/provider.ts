import type { Dispatcher } from 'undici';
import { UserError, type UserErrorDetails } from '../errors.js';
import { userAgentHeader } from '../web/user-agent.js';

/**
 * A seed search provider turns one query (an author node's meta words, ANDed: the thesis's
 * S = t1 ∩ … ∩ tn) into ranked root URLs for the crawl.
 *
 * Lifecycle: a provider is created once per run by `createProvider` (search/index.ts), which
 * checks its configuration (keys, endpoint) before any request is sent; `search` is then called
 * once per query, one call at a time, and pages through the API itself until it holds `count`
 * results or the API has no more. It keeps no state between calls that a caller relies on.
 * A `SearchQuotaError` means "stop asking for this run": the caller keeps what it found so far.
 *
 * This file is the contract only (practice 9): it imports none of the providers.
 */
export interface SearchProvider {
  /** The name the user gives to `--provider`. */
  readonly name: ProviderName;
  search(query: SearchQuery, opts: SearchOptions): Promise<SearchResult[]>;
  /**
   * The queries the provider brings itself, for a provider whose input already holds the meta
   * words (the `file` provider). Seeding then asks these instead of the author nodes' meta sets.
   */
  ownQueries?(): readonly SearchQuery[];
}

export const PROVIDER_NAMES = ['wikipedia', 'google', 'brave', 'searxng', 'file'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Wikipedia needs no key and its articles are prose: the best first seed for narrative. */
export const DEFAULT_PROVIDER: ProviderName = 'wikipedia';
/** The thesis seeds ten root URLs per meta set (section 4.1). */
export const DEFAULT_PER_QUERY = 10;
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;
/** English Wikipedia, the thesis's language. */
export const DEFAULT_WIKI = 'en';
/**
 * Wikimedia refuses requests without a User-Agent that names the tool and a way to reach its
 * operator; the crawler's own header (product token + contact URL) says both.
 */
export const DEFAULT_USER_AGENT = userAgentHeader();

export interface SearchQuery {
  /** The meta words the results are tied to, as the author wrote them (trimmed, deduplicated). */
  readonly words: readonly string[];
  /**
   * The words actually sent, when a widened query asks fewer than `words`. The results still
   * belong to all of `words`: pages found for part of a node's meta set seed that node.
   */
  readonly asked?: readonly string[];
}

export interface SearchOptions {
  /** How many results to return at most; the provider pages through the API to reach it. */
  count: number;
  signal?: AbortSignal;
}

export interface SearchResult {
  url: string;
  title: string;
  /** Plain text: providers strip the highlighting markup their APIs put into snippets. */
  snippet: string;
  /** 1-based position in the provider's ranking, counted across pages. */
  rank: number;
}

/** Configuration every provider understands; each reads the fields that concern it. */
export interface ProviderConfig {
  /** Where the API lives instead of its documented host (`--search-endpoint`). */
  endpoint?: string;
  timeoutMs?: number;
  userAgent?: string;
  /** Wikipedia language or site (`--wiki en`). */
  wiki?: string;
  /** The seed file of the `file` provider. */
  file?: string;
  /** Meta words for seed-file URLs listed before any `# meta:` line (`--meta`). */
  meta?: readonly string[];
  /**
   * The HTTP client of every provider (google's client library is handed a fetch over it): the
   * CLI passes one that honours --resolve, so a search endpoint on a test or staging name needs
   * no DNS.
   */
  dispatcher?: Dispatcher;
  /** Where API keys are read from; tests pass their own. */
  env?: NodeJS.ProcessEnv;
  /** How many times a provider retries a short, announced back-off (maxlag, per-second limits). */
  retries?: number;
  /** The longest announced back-off (Retry-After) a provider waits out before giving up. */
  maxRetryWaitMs?: number;
}

export type SearchErrorKind = 'quota' | 'auth' | 'unavailable' | 'response';

/**
 * Every search failure is something the user can act on (wait, fix a key, point the endpoint
 * elsewhere, pick another provider), so each is a UserError with its fix. `kind` carries the
 * policy for seeding: quota stops the run, the others end it too but name a different fix.
 */
export abstract class SearchError extends UserError {
  abstract readonly kind: SearchErrorKind;
  readonly provider: string;

  constructor(provider: string, message: string, details: UserErrorDetails = {}) {
    super(`${provider}: ${message}`, details);
    this.provider = provider;
  }
}

/** The API's quota or rate limit is spent: stop seeding, keep what was found. */
export class SearchQuotaError extends SearchError {
  readonly kind = 'quota';
  /** Seconds until the provider said the limit resets, when it said. */
  readonly retryAfterSeconds?: number;

  constructor(provider: string, message: string, details: UserErrorDetails & { retryAfterSeconds?: number } = {}) {
    super(provider, message, details);
    this.name = 'SearchQuotaError';
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The key is missing, wrong, or not allowed to use this API. */
export class SearchAuthError extends SearchError {
  readonly kind = 'auth';

  constructor(provider: string, message: string, details: UserErrorDetails = {}) {
    super(provider, message, details);
    this.name = 'SearchAuthError';
  }
}

/** The API could not be reached, timed out, or answered with a server error. */
export class SearchUnavailableError extends SearchError {
  readonly kind = 'unavailable';

  constructor(provider: string, message: string, details: UserErrorDetails = {}) {
    super(provider, message, details);
    this.name = 'SearchUnavailableError';
  }
}

/** The API answered, but not in its documented shape (not JSON, or fields missing). */
export class SearchResponseError extends SearchError {
  readonly kind = 'response';

  constructor(provider: string, message: string, details: UserErrorDetails = {}) {
    super(provider, message, details);
    this.name = 'SearchResponseError';
  }
}

export function isSearchError(e: unknown): e is SearchError {
  return e instanceof SearchError;
}
