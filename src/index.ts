/**
 * The library API: what `import … from 'anwc'` gives. The CLI is built on the same functions.
 */
export { UserError, type UserErrorDetails, type Where } from './errors.js';
export { VERSION } from './version.js';
export * from './markup/index.js';
export * from './text/index.js';
export { splitSentences } from './text/sentences.js';
export * from './html/index.js';
export { narrativeAction, type NarrativeOptions, type MetaContext } from './walk/actions/narrative.js';
export { FenwickWheel } from './walk/strategies/fenwick.js';
export { RouletteWheel } from './walk/strategies/roulette.js';
export { createStrategy, STRATEGIES, type DomainStrategy, type StrategyName } from './walk/strategies/strategy.js';
export * from './walk/constraints/constraint.js';
export * as constraints from './walk/constraints/builtin.js';
export { describeOutcome, type WalkOutcome } from './walk/outcome.js';
export { openStore, type OpenOptions } from './store/open.js';
export type { Store, StoredNode, MetaWord, Link, Origin } from './store/store.js';
export { importFiles } from './feed/import.js';
export { pickNode, type PickOptions, type PickedNode } from './feed/pick.js';
export { getProportion, setProportion } from './feed/mix.js';
export { exportNodes, type ExportOptions } from './feed/export.js';
export { createProvider, type SearchProvider, type SearchResult, type ProviderConfig } from './search/index.js';
export { seed, type SeedOptions, type SeedSummary } from './search/seed.js';
export { harvest, type HarvestOptions, type HarvestReport } from './harvest/harvest.js';
export { HARVEST_DEFAULTS } from './harvest/defaults.js';
export { Fetcher, type FetcherOptions } from './web/fetcher.js';
export type { FetchOutcome } from './web/outcome.js';
export { checkRobots, robotsFromFetch, type RobotsRules } from './web/robots.js';
