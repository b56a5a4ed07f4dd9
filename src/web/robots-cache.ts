import { keepNewest } from '../bounded.js';
import { isRobotsRules, type RobotsRules } from './robots.js';

/**
 * Where robots.txt policies outlive the process (MOMspider's sites file), keyed by origin. The
 * Store of src/store has this shape, keeping the rules as JSON with their expiry. What comes back
 * is checked, not trusted: it may be an old format.
 */
export interface RobotsStore {
  saveRobots(key: string, robots: unknown, expiresAt: number): Promise<void>;
  /** The last entry kept, expired or not (the cache judges, and learns from an expired one); undefined when there is none. */
  loadRobots(key: string): Promise<{ robots: unknown; expiresAt: number } | undefined>;
}

export interface RobotsCacheOptions {
  /** Persistence behind the memory; without it the cache lives and dies with the process. */
  store?: RobotsStore;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  /** Origins kept in memory; the least recently used is dropped first. */
  maxEntries?: number;
  /** The memory itself, when several caches of one run share it (a maintenance file's tasks): one robots.txt request per origin per run. */
  memory?: Map<string, RobotsRules>;
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
  private readonly memory: Map<string, RobotsRules>;
  private readonly store?: RobotsStore;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: RobotsCacheOptions = {}) {
    this.store = options.store;
    this.memory = options.memory ?? new Map();
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The rules for an origin that are still fresh, from memory or else the store. */
  async get(origin: string): Promise<RobotsRules | undefined> {
    const rules = await this.lookup(origin);
    return rules && this.now() < rules.expiresAt ? rules : undefined;
  }

  /** The last rules known for an origin, fresh or not, in this process or an earlier one (to grow the retry delay). */
  async stale(origin: string): Promise<RobotsRules | undefined> {
    return this.lookup(origin);
  }

  async put(origin: string, rules: RobotsRules): Promise<void> {
    this.remember(origin, rules);
    await this.store?.saveRobots(origin, rules, rules.expiresAt);
  }

  private async lookup(origin: string): Promise<RobotsRules | undefined> {
    const inMemory = this.memory.get(origin);
    if (inMemory) {
      this.remember(origin, inMemory);
      return inMemory;
    }
    const entry = await this.store?.loadRobots(origin);
    if (!entry || !isRobotsRules(entry.robots)) return undefined;
    this.remember(origin, entry.robots);
    return entry.robots;
  }

  private remember(origin: string, rules: RobotsRules): void {
    this.memory.delete(origin);
    this.memory.set(origin, rules);
    keepNewest(this.memory, this.maxEntries);
  }
}
