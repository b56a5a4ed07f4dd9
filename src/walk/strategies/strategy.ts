import { RouletteWheel } from './roulette.js';

/**
 * A strategy picks the domain whose next link is walked, among the domains eligible now (pending
 * links, politeness says ready, within budget). Within the domain, links come out in `linkOrder`.
 *
 * Lifecycle: `add` when a domain is first seen → `setEligible` as its state changes → `next` →
 * `reward` when its page yielded narrative nodes.
 */
export interface DomainStrategy {
  readonly name: StrategyName;
  readonly linkOrder: 'discovery' | 'newest';
  add(domainId: number, score: number): void;
  setEligible(domainId: number, eligible: boolean): void;
  isEligible(domainId: number): boolean;
  next(random: () => number): number | undefined;
  reward(domainId: number, delta: number): void;
  /** The score as the store has it now (other processes reward too); ignored for a domain not added. */
  setScore(domainId: number, score: number): void;
  score(domainId: number): number | undefined;
}

export const STRATEGIES = ['roulette', 'bfs', 'dfs'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** Thesis chapter 4: draw a domain with probability score / total of the eligible domains. */
class RouletteStrategy implements DomainStrategy {
  readonly name = 'roulette' as const;
  readonly linkOrder = 'discovery' as const;
  readonly wheel = new RouletteWheel<number>();
  add(id: number, score: number) {
    if (!this.wheel.has(id)) this.wheel.upsert(id, score);
  }
  setEligible(id: number, eligible: boolean) {
    this.wheel.setEligible(id, eligible);
  }
  isEligible(id: number) {
    return this.wheel.isEligible(id);
  }
  next(random: () => number) {
    return this.wheel.draw(random);
  }
  reward(id: number, delta: number) {
    this.wheel.reward(id, delta);
  }
  setScore(id: number, score: number) {
    if (this.wheel.has(id)) this.wheel.upsert(id, score);
  }
  score(id: number) {
    return this.wheel.score(id);
  }
}

/**
 * The uninformed baselines of thesis chapter 4, made polite: bfs serves domains round-robin in the
 * order they were found and their links oldest first; dfs stays with the newest domain that is
 * ready and takes its newest link first. Scores are kept only to report them; they steer nothing.
 * Picking scans the domains, O(D): these exist to be compared with the wheel, not to scale.
 */
class OrderedStrategy implements DomainStrategy {
  readonly linkOrder: 'discovery' | 'newest';
  private readonly order: number[] = [];
  private readonly eligible = new Set<number>();
  private readonly scores = new Map<number, number>();
  constructor(readonly name: 'bfs' | 'dfs') {
    this.linkOrder = name === 'bfs' ? 'discovery' : 'newest';
  }
  add(id: number, score: number) {
    if (this.scores.has(id)) return;
    this.scores.set(id, score);
    this.order.push(id);
  }
  setEligible(id: number, eligible: boolean) {
    if (eligible) this.eligible.add(id);
    else this.eligible.delete(id);
  }
  isEligible(id: number) {
    return this.eligible.has(id);
  }
  next(): number | undefined {
    if (this.eligible.size === 0) return undefined;
    if (this.name === 'dfs') {
      for (let i = this.order.length - 1; i >= 0; i--) if (this.eligible.has(this.order[i]!)) return this.order[i];
      return undefined;
    }
    const i = this.order.findIndex((id) => this.eligible.has(id));
    if (i < 0) return undefined;
    const [id] = this.order.splice(i, 1);
    this.order.push(id!);
    return id;
  }
  reward(id: number, delta: number) {
    this.scores.set(id, Math.max(0, (this.scores.get(id) ?? 1) + delta));
  }
  setScore(id: number, score: number) {
    if (this.scores.has(id)) this.scores.set(id, score);
  }
  score(id: number) {
    return this.scores.get(id);
  }
}

export function createStrategy(name: StrategyName): DomainStrategy {
  return name === 'roulette' ? new RouletteStrategy() : new OrderedStrategy(name);
}
