import type { StrategyName } from '../walk/strategies/strategy.js';

/**
 * Defaults of a harvest run, printed by `--help`. The thesis gives the wheel (score 1, +1 per
 * productive page); depth and lease are ours: four links from a search result is already far from
 * the topic, and a running process renews its leases every ten seconds, so thirty seconds after a
 * crash its links are back.
 */
export const HARVEST_DEFAULTS = {
  strategy: 'roulette' as StrategyName,
  concurrency: 4,
  reward: 1,
  maxDepth: 4,
  leaseMs: 30_000,
} as const;
