import type { RobotsRules } from './robots.js';

/**
 * Where robots.txt policies outlive the process (the store's sites table). Implementations keep
 * the rules as JSON with their expiresAt; the cache, not the store, decides what is stale.
 */
export interface RobotsStore {
  loadRobots(origin: string): Promise<RobotsRules | undefined>;
  saveRobots(origin: string, rules: RobotsRules): Promise<void>;
}

export interface RobotsCacheOptions {
  /** Persistence behind the memory; without it the cache lives and dies with the process. */
  store?: RobotsStore;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** Origins kept in memory; the least recently used is dropped first. */
  maxEntries?: number;
}

/** `https://example.com:8443` for any URL of that origin: robots.txt applies per origin (RFC 9309 §2.3). */
export function robotsOrigin(url: string): string {
  return new URL(url).origin;
}

/** The robots.txt URL for any URL of the origin. */
export function robotsUrl(url: string): string {
  return `${robotsOrigin(url)}/robots.txt`;
}

/**
 * Robots policies keyed by origin, with expiry. Lifecycle of an entry: `get` misses (absent or
 * expired) → the caller fetches /robots.txt → `robotsFromFetch` → `put` → `get` hits until
 * `expiresAt` (at most 24 h, or the retry time after a failure) → misses again.
 */
export class RobotsCache {
  private readonly memory = new Map<string, RobotsRules>();
  private readonly store?: RobotsStore;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: RobotsCacheOptions = {}) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The rules for an origin that are still fresh, from memory or else the store. */
  async get(origin: string): Promise<RobotsRules | undefined> {
    const rules = await this.lookup(origin);
    return rules && this.now() < rules.expiresAt ? rules : undefined;
  }

  /** The last rules known for an origin, fresh or not (to grow the retry delay). */
  async stale(origin: string): Promise<RobotsRules | undefined> {
    return this.lookup(origin);
  }

  async put(origin: string, rules: RobotsRules): Promise<void> {
    this.remember(origin, rules);
    await this.store?.saveRobots(origin, rules);
  }

  private async lookup(origin: string): Promise<RobotsRules | undefined> {
    const inMemory = this.memory.get(origin);
    if (inMemory) {
      this.remember(origin, inMemory);
      return inMemory;
    }
    const stored = await this.store?.loadRobots(origin);
    if (stored) this.remember(origin, stored);
    return stored;
  }

  private remember(origin: string, rules: RobotsRules): void {
    this.memory.delete(origin);
    this.memory.set(origin, rules);
    if (this.memory.size > this.maxEntries) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
  }
}
