import { UserError } from '../errors.js';
import { braveProvider } from './brave.js';
import { fileProvider } from './file.js';
import { googleProvider } from './google.js';
import { PROVIDER_NAMES, type ProviderConfig, type ProviderName, type SearchProvider } from './provider.js';
import { searxngProvider } from './searxng.js';
import { wikipediaProvider } from './wikipedia.js';

export * from './provider.js';
export { queryText, metaSetKey, normalizeMetaSet, widenings, wordWeights } from './query.js';
export { parseSeedFile, type SeedGroup } from './file.js';
export { articleUrl, wikiHost } from './wikipedia.js';

const FACTORIES: Record<ProviderName, (config: ProviderConfig) => SearchProvider> = {
  wikipedia: wikipediaProvider,
  google: googleProvider,
  brave: braveProvider,
  searxng: searxngProvider,
  file: fileProvider,
};

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * The provider named by `--provider`, configured and checked: a missing key or endpoint is a
 * UserError here, before the first query is sent.
 */
export function createProvider(name: string, config: ProviderConfig = {}): SearchProvider {
  if (!isProviderName(name)) {
    throw new UserError('unknown search provider', { value: name, fix: `choose one of ${PROVIDER_NAMES.join(', ')}` });
  }
  return FACTORIES[name](config);
}
