import type { FetcherOptions } from '../web/fetcher.js';
import type { PolitenessOptions } from '../web/politeness.js';
import { resolved, type OptionName } from './options.js';

/** The web options every command that fetches shares, so `fetch`, `seed` and `harvest` agree. */
export const FETCH_OPTION_NAMES = ['user-agent', 'contact', 'from', 'resolve', 'allow-private', 'timeout', 'max-bytes', 'max-redirects'] as const satisfies readonly OptionName[];
export const POLITENESS_OPTION_NAMES = ['delay', 'per-host', 'backoff'] as const satisfies readonly OptionName[];

export function fetcherOptionsFrom(argv: Record<string, unknown>): FetcherOptions {
  const v = (name: OptionName) => resolved(argv, name).value;
  return {
    userAgent: v('user-agent') as string,
    contact: v('contact') as string,
    from: v('from') as string | undefined,
    resolve: ((v('resolve') as unknown[] | undefined) ?? []).map(String),
    allowPrivate: Boolean(v('allow-private')),
    timeoutMs: (v('timeout') as number) * 1000,
    maxBytes: v('max-bytes') as number,
    maxRedirects: v('max-redirects') as number,
  };
}

export function politenessOptionsFrom(argv: Record<string, unknown>): PolitenessOptions {
  return {
    delayMs: (resolved(argv, 'delay').value as number) * 1000,
    perHost: resolved(argv, 'per-host').value as number,
    backoffBaseMs: (resolved(argv, 'backoff').value as number) * 1000,
  };
}
