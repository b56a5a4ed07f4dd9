import type { Store } from '../store/store.js';
import { MinHeap } from './heap.js';
import type { DomainStrategy } from './strategies/strategy.js';

interface DomainState {
  host: string;
  pending: boolean;
  inFlight: boolean;
  /** Pages started in this run (the per-domain budget). */
  pages: number;
  /** A wake-up is queued for this domain. */
  cooling: boolean;
  /** Politeness gave up on the host (errors in a row): never ready again in this run. */
  gaveUp: boolean;
}

export interface FrontierOptions {
  maxPagesPerDomain?: number;
  /** Politeness decides when a host is ready; the frontier only keeps a wake-up schedule. */
  readyAt(host: string, now: number): number;
  now(): number;
}

/**
 * This process's view of the shared frontier: which domains have pending links, which are in
 * flight or cooling down, and which are within budget. A domain is eligible on the strategy only
 * when all four allow it. The links themselves stay in the store, leased one at a time, so several
 * processes can walk one database.
 */
export class Frontier {
  private readonly domains = new Map<number, DomainState>();
  private readonly idOfHost = new Map<string, number>();
  private readonly wakeups = new MinHeap<number>();

  constructor(private readonly store: Store, private readonly strategy: DomainStrategy, private readonly opts: FrontierOptions) {}

  size(): number {
    return this.domains.size;
  }

  host(id: number): string | undefined {
    return this.domains.get(id)?.host;
  }

  /** Reads the domains with pending links from the store (at start, and now and then for others' links). */
  async load(): Promise<void> {
    for (const d of await this.store.domainsWithPending(this.opts.now())) {
      this.strategy.add(d.id, d.score);
      const s = this.state(d.id, d.host);
      s.pending = true;
      this.schedule(d.id);
    }
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
      const s = this.domains.get(id)!;
      s.pending = true;
      this.schedule(id);
    }
  }

  /** Wakes the domains whose cooling ended, then lets the strategy draw among the eligible ones. */
  draw(random: () => number): number | undefined {
    const now = this.opts.now();
    while (this.wakeups.size > 0 && this.wakeups.peekKey()! <= now) {
      const id = this.wakeups.pop()!.value;
      const s = this.domains.get(id)!;
      s.cooling = false;
      const ready = this.opts.readyAt(s.host, now);
      if (ready > now) this.schedule(id, ready);
      else this.strategy.setEligible(id, this.eligible(s));
    }
    return this.strategy.next(random);
  }

  started(id: number, _host: string): void {
    const s = this.domains.get(id)!;
    s.inFlight = true;
    s.pages++;
    this.strategy.setEligible(id, false);
  }

  finished(id: number, _host: string): void {
    const s = this.domains.get(id);
    if (!s) return;
    s.inFlight = false;
    this.schedule(id);
  }

  /** The store had nothing left to lease for this domain. */
  exhausted(id: number): void {
    const s = this.domains.get(id);
    if (s) s.pending = false;
    this.strategy.setEligible(id, false);
  }

  /** When the next cooling domain becomes ready, if any is cooling. */
  nextWakeAt(): number | undefined {
    return this.wakeups.peekKey();
  }

  anyEligible(): boolean {
    for (const [id] of this.domains) if (this.strategy.isEligible(id)) return true;
    return false;
  }

  private state(id: number, host: string): DomainState {
    let s = this.domains.get(id);
    if (!s) {
      s = { host, pending: false, inFlight: false, pages: 0, cooling: false, gaveUp: false };
      this.domains.set(id, s);
      this.idOfHost.set(host, id);
    }
    return s;
  }

  private eligible(s: DomainState): boolean {
    return s.pending && !s.inFlight && !this.isRetired(s);
  }

  private isRetired(s: DomainState): boolean {
    return s.gaveUp || s.pages >= (this.opts.maxPagesPerDomain ?? Infinity);
  }

  /** The domain will not be walked again in this run: its page budget is spent or its host gave up. */
  retired(id: number): boolean {
    const s = this.domains.get(id);
    return s !== undefined && this.isRetired(s);
  }

  givenUp(): string[] {
    return [...this.domains.values()].filter((s) => s.gaveUp).map((s) => s.host);
  }

  /** Queues a wake-up when politeness says the host is ready (now, if it already is). */
  private schedule(id: number, at?: number): void {
    const s = this.domains.get(id)!;
    if (!this.eligible(s)) {
      this.strategy.setEligible(id, false);
      return;
    }
    if (s.cooling) return;
    const now = this.opts.now();
    const ready = at ?? this.opts.readyAt(s.host, now);
    if (ready === Infinity) {
      s.gaveUp = true;
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
