import { SCORE_FLOOR } from '../../store/store.js';
import { FenwickWheel } from './fenwick.js';

/**
 * The roulette wheel of thesis chapter 4 over domains: each domain's slice is its score, and only
 * eligible domains (pending links, not cooling down, within budget, not blocked) have a slice at
 * the draw. Scores survive while a domain is ineligible, so it returns with its earned slice.
 *
 * Lifecycle: `upsert` when a domain is first seen (score 1 by default) → `setEligible` whenever
 * politeness, budget or the frontier change its state → `draw` → `reward` after its page.
 */
export class RouletteWheel<K = number> {
  private readonly wheel = new FenwickWheel(64);
  private readonly slotOf = new Map<K, number>();
  private readonly keys: K[] = [];
  private readonly scores: number[] = [];
  private readonly eligible: boolean[] = [];

  get size(): number {
    return this.keys.length;
  }

  has(key: K): boolean {
    return this.slotOf.has(key);
  }

  /** Adds a domain (ineligible until said otherwise) or updates its score. */
  upsert(key: K, score = 1): void {
    let slot = this.slotOf.get(key);
    if (slot === undefined) {
      slot = this.keys.length;
      this.slotOf.set(key, slot);
      this.keys.push(key);
      this.scores.push(score);
      this.eligible.push(false);
      return;
    }
    this.scores[slot] = score;
    if (this.eligible[slot]) this.wheel.set(slot, score);
  }

  setEligible(key: K, eligible: boolean): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined || this.eligible[slot] === eligible) return;
    this.eligible[slot] = eligible;
    this.wheel.set(slot, eligible ? this.scores[slot]! : 0);
  }

  isEligible(key: K): boolean {
    const slot = this.slotOf.get(key);
    return slot !== undefined && this.eligible[slot]!;
  }

  /**
   * Adds `delta` to a domain's score (the thesis rewards a page that yielded a node with +1). A
   * negative delta leaves it no lower than SCORE_FLOOR (nor than it was), as the store does.
   */
  reward(key: K, delta: number): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    const score = this.scores[slot]!;
    this.upsert(key, Math.max(Math.min(score, SCORE_FLOOR), score + delta));
  }

  score(key: K): number | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined ? undefined : this.scores[slot];
  }

  /** Sum of the slices that can be drawn now. */
  eligibleTotal(): number {
    return this.wheel.total();
  }

  /** Draws an eligible domain with probability score / eligible total; undefined when none is. */
  draw(random: () => number): K | undefined {
    const slot = this.wheel.draw(random);
    return slot < 0 ? undefined : this.keys[slot];
  }

  /** The highest-scored domains with their share of all scores (for the end-of-run summary). */
  top(n: number): { key: K; score: number; share: number }[] {
    const total = this.scores.reduce((a, b) => a + b, 0) || 1;
    return this.keys
      .map((key, i) => ({ key, score: this.scores[i]!, share: this.scores[i]! / total }))
      .sort((a, b) => b.score - a.score)
      .slice(0, n);
  }
}
