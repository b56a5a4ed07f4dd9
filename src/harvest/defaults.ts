import type { StrategyName } from '../walk/strategies/strategy.js';

/** What a harvest's depth counts from: a seed or the last page that paid the wheel, or a seed only. */
export type DepthFrom = 'text' | 'seed';

/**
 * Defaults of a harvest run, printed by `--help`. The thesis gives the wheel (score 1, +1 per
 * productive page); depth and lease are ours: four links from a search result, or from the last
 * page that gave text, is already far from the topic, and a running process renews its leases
 * every ten seconds, so thirty seconds after a crash its links are back.
 */
export const HARVEST_DEFAULTS = {
  strategy: 'roulette' as StrategyName,
  concurrency: 4,
  reward: 1,
  maxDepth: 4,
  depthFrom: 'text' as DepthFrom,
  leaseMs: 30_000,
} as const;
