import type { DomainScore, Store } from '../store/store.js';
import { MinHeap } from './heap.js';
import type { DomainStrategy } from './strategies/strategy.js';

/** How far behind ours another machine's clock may be without its score changes being missed. */
const CLOCK_SKEW_MS = 5000;

interface DomainState {
  host: string;
  pending: boolean;
  /** Pages started in this run (the per-domain budget). */
  pages: number;
  /** A wake-up is queued for this domain. */
  cooling: boolean;
  /** Politeness gave up on the host (errors in a row): never ready again in this run. */
  gaveUp: boolean;
}

/**
 * When a host may take a request: at a time (now or later), `busy` until a request in flight
 * comes back, or `gave-up` for the rest of the run. Politeness alone answers this.
 */
export type Readiness = number | 'busy' | 'gave-up';

export interface FrontierOptions {
  maxPagesPerDomain?: number;
  readiness(host: string, now: number): Readiness;
  now(): number;
}

/**
 * This process's view of the shared frontier: which domains have pending links, which wait (for
 * politeness, or for a retry that is not due yet), and which are within budget. A domain is
 * eligible on the strategy only when it has pending links, is within budget and politeness says
 * its host is ready; how many requests a host takes at once is politeness's to say, not ours. The
 * links stay in the store, leased one at a time, so several processes can walk one database.
 */
export class Frontier {
  private readonly domains = new Map<number, DomainState>();
  private readonly idOfHost = new Map<string, number>();
  private readonly wakeups = new MinHeap<number>();
  /** The newest score change read from the store (load() reads every score). */
  private scoresSeen = 0;
  /** The newest link read by a look at the store. */
  private linksSeen = 0;

  constructor(private readonly store: Store, private readonly strategy: DomainStrategy, private readonly opts: FrontierOptions) {}

  size(): number {
    return this.domains.size;
  }

  host(id: number): string | undefined {
    return this.domains.get(id)?.host;
  }

  /** Reads the domains with pending links and their stored scores (at start, and now and then for others' links). */
  async load(): Promise<void> {
    this.scoresSeen = Math.max(this.scoresSeen, this.opts.now() - 1);
    // The mark first: a link added during the scan is read again at the next refresh, not missed.
    this.linksSeen = (await this.store.domainsWithLinksAfter(Number.MAX_SAFE_INTEGER)).newestLinkId;
    this.addPending(await this.store.domainsWithPending(this.opts.now()));
  }

  private addPending(domains: DomainScore[]): void {
    for (const d of domains) {
      this.strategy.add(d.id, d.score);
      const s = this.state(d.id, d.host);
      s.pending = true;
      this.schedule(d.id);
    }
  }

  /**
   * Scores other processes changed since the last look, into this process's wheel, and the domains
   * they gave new links: one wheel for all, each process's copy at most one refresh old. Without
   * the new links a worker would draw only among the domains it found, or still had work on,
   * itself, until the next full load (rescanMs), while a rich host another worker found held its
   * share of the wheel.
   */
  async refreshScores(): Promise<void> {
    // score_at is the writing process's clock: look back far enough that a machine whose clock
    // lags ours by up to CLOCK_SKEW_MS is not missed. Setting a score twice is harmless.
    const { scores, latest } = await this.store.scoresSince(this.scoresSeen - CLOCK_SKEW_MS);
    for (const d of scores) this.strategy.setScore(d.id, d.score);
    this.scoresSeen = Math.max(this.scoresSeen, latest);
    const found = await this.store.domainsWithLinksAfter(this.linksSeen);
    this.addPending(found.domains);
    this.linksSeen = found.newestLinkId;
  }

  /** A page added links on these hosts: their domains have pending work again. */
  async noteNewLinks(hosts: string[]): Promise<void> {
    for (const host of new Set(hosts)) {
      let id = this.idOfHost.get(host);
      if (id === undefined) {
        const d = await this.store.domain(host);
        if (!d) continue;
        id = d.id;
        this.strategy.add(d.id, d.score);
        this.state(d.id, host);
      }
      this.domains.get(id)!.pending = true;
      this.schedule(id);
    }
  }

  /** Wakes the domains whose wait ended, then lets the strategy draw among the eligible ones. */
  draw(random: () => number): number | undefined {
    const now = this.opts.now();
    while (this.wakeups.size > 0 && this.wakeups.peekKey()! <= now) {
      const id = this.wakeups.pop()!.value;
      this.domains.get(id)!.cooling = false;
      this.schedule(id);
    }
    return this.strategy.next(random);
  }

  /** A page of the domain started: its budget counts it, and politeness may now say busy or later. */
  started(id: number): void {
    this.domains.get(id)!.pages++;
    this.schedule(id);
  }

  /** A page of the domain came back: politeness may say ready again. */
  finished(id: number): void {
    if (this.domains.has(id)) this.schedule(id);
  }

  /**
   * The store had nothing to lease for this domain now. With `dueAt`, its pending links wait for
   * a retry that falls due then; without, it has none left.
   */
  exhausted(id: number, dueAt: number | null): void {
    const s = this.domains.get(id);
    if (!s) return;
    this.strategy.setEligible(id, false);
    if (dueAt === null) {
      s.pending = false;
    } else if (!s.cooling) {
      s.cooling = true;
      this.wakeups.push(Math.max(dueAt, this.opts.now()), id);
    }
  }

  /** When the next waiting domain is due, if any is waiting. */
  nextWakeAt(): number | undefined {
    return this.wakeups.peekKey();
  }

  /** The next waiting domain's host and when it is due, if any is waiting. */
  nextWake(): { at: number; host: string } | undefined {
    const top = this.wakeups.peek();
    return top && { at: top.key, host: this.domains.get(top.value)!.host };
  }

  anyEligible(): boolean {
    for (const [id] of this.domains) if (this.strategy.isEligible(id)) return true;
    return false;
  }

  private state(id: number, host: string): DomainState {
    let s = this.domains.get(id);
    if (!s) {
      s = { host, pending: false, pages: 0, cooling: false, gaveUp: false };
      this.domains.set(id, s);
      this.idOfHost.set(host, id);
    }
    return s;
  }

  private isRetired(s: DomainState): boolean {
    return s.gaveUp || s.pages >= (this.opts.maxPagesPerDomain ?? Infinity);
  }

  /** The domain will not be walked again in this run: its page budget is spent or its host gave up. */
  retired(id: number): boolean {
    const s = this.domains.get(id);
    return s !== undefined && this.isRetired(s);
  }

  /** Pages the domain may still start in this run. */
  budgetLeft(id: number): number {
    return (this.opts.maxPagesPerDomain ?? Infinity) - (this.domains.get(id)?.pages ?? 0);
  }

  givenUp(): string[] {
    return [...this.domains.values()].filter((s) => s.gaveUp).map((s) => s.host);
  }

  /** Makes the domain eligible when politeness says its host is ready, or queues a wake-up for when it will be. */
  private schedule(id: number): void {
    const s = this.domains.get(id)!;
    if (!s.pending || this.isRetired(s) || s.cooling) {
      this.strategy.setEligible(id, false);
      return;
    }
    const now = this.opts.now();
    const ready = this.opts.readiness(s.host, now);
    if (ready === 'gave-up') s.gaveUp = true;
    if (typeof ready !== 'number') {
      this.strategy.setEligible(id, false);
      return;
    }
    if (ready <= now) {
      this.strategy.setEligible(id, true);
      return;
    }
    this.strategy.setEligible(id, false);
    s.cooling = true;
    this.wakeups.push(ready, id);
  }
}
