import type { Link, LinkInput, NodeInput, Store } from '../store/store.js';
import { ConstraintSet, type Candidate } from './constraints/constraint.js';
import { Frontier } from './frontier.js';
import { statusOf, toStored, type WalkOutcome } from './outcome.js';
import { WalkStats } from './stats.js';
import type { DomainStrategy } from './strategies/strategy.js';

/**
 * The walker loop of DESIGN.md, in its five steps: pick (the strategy draws a domain, the store
 * leases its next link) → filter (the activity's constraints, cheapest first) → fetch (politely,
 * through the ports) → act (the activity's action on the page) → feedBack (one transaction per
 * page, and the domain's reward on the wheel). Everything else lives beside it: the frontier view,
 * politeness, constraints, outcomes, statistics.
 */

/** A page as the fetch step hands it to the action. */
export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
}

/** What the action made of a page. */
export interface ActResult {
  outcome: WalkOutcome;
  nodes: NodeInput[];
  /** Absolute URLs found on the page, to be filtered and added to the frontier. */
  links: string[];
  /** Added to the domain's score (the thesis: +1 when the page yielded a node). */
  reward: number;
}

export interface WalkPorts {
  store: Store;
  strategy: DomainStrategy;
  constraints: ConstraintSet;
  /**
   * Politeness and robots: fetches the link or says why not, as an outcome. An outcome may come
   * with links to walk instead (a redirect to another host becomes a link of that host).
   */
  fetch(link: Link, signal: AbortSignal): Promise<{ page: FetchedPage } | { outcome: WalkOutcome; links?: string[] }>;
  act(page: FetchedPage, link: Link): Promise<ActResult>;
  /** When each host may be fetched next (politeness, robots Crawl-delay, Retry-After). */
  readyAt(host: string, now: number): number;
  random: () => number;
  now?: () => number;
}

export interface WalkOptions {
  /** Pages fetched at once; per-host politeness still holds. */
  concurrency: number;
  maxPages?: number;
  maxPagesPerDomain?: number;
  /** Milliseconds from the start after which no new page is started. */
  maxTimeMs?: number;
  /** Lease length: a link leased by a process that died comes back after this. */
  leaseMs: number;
  /** Who holds the leases (host:pid:random), so cooperating processes never share a page. */
  owner: string;
  /** How often to look for domains other processes added (ms). */
  rescanMs?: number;
}

export type StopReason = 'frontier-empty' | 'max-pages' | 'max-time' | 'interrupted';

export class Walker {
  readonly stats = new WalkStats();
  private readonly frontier: Frontier;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private stopReason: StopReason | undefined;
  private readonly started: number;
  private wake: (() => void) | undefined;
  /** Something finished since the loop last looked: set even when nobody waits, so no wake-up is lost. */
  private nudged = false;

  constructor(private readonly ports: WalkPorts, private readonly opts: WalkOptions) {
    const now = ports.now ?? Date.now;
    this.started = now();
    this.frontier = new Frontier(ports.store, ports.strategy, {
      maxPagesPerDomain: opts.maxPagesPerDomain,
      readyAt: ports.readyAt,
      now,
    });
  }

  private now(): number {
    return (this.ports.now ?? Date.now)();
  }

  /** Ctrl-C once: finish the pages in flight, save, stop. */
  stop(reason: StopReason = 'interrupted'): void {
    this.stopReason ??= reason;
    this.nudge();
  }

  private nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Ctrl-C twice: abandon the pages in flight (their leases expire and they are walked later). */
  abortNow(): void {
    this.stop('interrupted');
    this.abort.abort();
  }

  async run(): Promise<StopReason> {
    await this.ports.store.releaseExpiredLeases(this.now());
    await this.frontier.load();
    let lastRescan = this.now();
    while (!this.stopReason) {
      this.checkBudgets();
      if (this.stopReason) break;
      while (this.inFlight.size < this.opts.concurrency && !this.stopReason && this.startsLeft() > 0) {
        const link = await this.pick();
        if (!link) break;
        this.track(this.walkOne(link));
      }
      if (this.now() - lastRescan > (this.opts.rescanMs ?? 30_000)) {
        await this.frontier.load();
        lastRescan = this.now();
      }
      const wakeAt = this.frontier.nextWakeAt();
      if (this.inFlight.size === 0 && wakeAt === undefined) {
        // Nothing cooling down and nothing pending here; another process may have added links.
        await this.frontier.load();
        if (this.frontier.nextWakeAt() !== undefined || this.frontier.anyEligible()) continue;
        // Links another process holds are not walked yet: it finishes them, or it died and their
        // leases run out and they become ours. Wait for either; only then is the frontier empty.
        if (!(await this.leasedElsewhere())) {
          this.stop('frontier-empty');
          continue;
        }
      }
      await this.idle(wakeAt);
    }
    await Promise.allSettled([...this.inFlight]);
    return this.stopReason ?? 'frontier-empty';
  }

  /**
   * Whether another process holds a lease (nothing of ours is in flight when this is asked): a
   * domain that has a leasable link once every lease has run out has a link leased now.
   */
  private async leasedElsewhere(): Promise<boolean> {
    // Domains this run has retired (page budget spent, host given up) keep their pending links
    // for a later run; they are not someone else's work to wait for.
    const domains = await this.ports.store.domainsWithPending(Number.MAX_SAFE_INTEGER);
    return domains.some((d) => !this.frontier.retired(d.id));
  }

  /** Pages this run may still start, counting those in flight. */
  private startsLeft(): number {
    const max = this.opts.maxPages ?? Infinity;
    return max - this.stats.pagesStarted;
  }

  private checkBudgets(): void {
    if (this.opts.maxTimeMs !== undefined && this.now() - this.started >= this.opts.maxTimeMs) this.stop('max-time');
    if (this.startsLeft() <= 0 && this.inFlight.size === 0) this.stop('max-pages');
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      this.nudge();
    });
  }

  /** Waits until a page finishes, a cooling domain becomes ready, or stop() is called. */
  private idle(wakeAt: number | undefined): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    const ms = wakeAt === undefined ? 1000 : Math.max(0, Math.min(wakeAt - this.now(), 1000));
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = undefined;
        self.nudged = false;
        resolve();
      }
      this.wake = done;
    });
  }

  /** Step 1: the strategy draws a ready domain; the store leases that domain's next link. */
  private async pick(): Promise<Link | undefined> {
    for (;;) {
      const domainId = this.frontier.draw(this.ports.random);
      if (domainId === undefined) return undefined;
      const link = await this.ports.store.leaseNextLink(domainId, this.opts.owner, this.opts.leaseMs, this.now(), this.ports.strategy.linkOrder);
      if (link) {
        this.frontier.started(domainId, link.host);
        this.stats.pagesStarted++;
        return link;
      }
      this.frontier.exhausted(domainId);
    }
  }

  /** Steps 2-5 for one link. */
  private async walkOne(link: Link): Promise<void> {
    let result: ActResult | undefined;
    let outcome: WalkOutcome;
    try {
      const verdict = this.filter(link);
      if (verdict) {
        outcome = verdict;
      } else {
        const fetched = await this.ports.fetch(link, this.abort.signal);
        if ('outcome' in fetched) {
          outcome = fetched.outcome;
          if (fetched.links) result = { outcome, nodes: [], links: fetched.links, reward: 0 };
        } else {
          result = await this.act(fetched.page, link);
          outcome = result.outcome;
        }
      }
    } catch (err) {
      if (this.abort.signal.aborted) return;
      outcome = { kind: 'failed', failure: 'internal', detail: err instanceof Error ? err.message : String(err) };
    }
    if (this.abort.signal.aborted) return;
    await this.feedBack(link, outcome, result);
  }

  /** Step 2: the context and URI constraints, again, in case the scope changed since discovery. */
  private filter(link: Link): WalkOutcome | undefined {
    const v = this.ports.constraints.check(candidateOf(link), 'uri');
    return v.pass ? undefined : { kind: 'rejected', constraint: v.constraint, cost: v.cost, detail: v.detail };
  }

  /** Step 4: header and resource constraints on the fetched page, then the activity's action. */
  private async act(page: FetchedPage, link: Link): Promise<ActResult> {
    const c: Candidate = { ...candidateOf(link), headers: page.headers, body: page.text };
    const v = this.ports.constraints.check(c, 'resource', 'header');
    if (!v.pass) {
      return { outcome: { kind: 'rejected', constraint: v.constraint, cost: v.cost, detail: v.detail }, nodes: [], links: [], reward: 0 };
    }
    return this.ports.act(page, link);
  }

  /** Step 5: one transaction stores the page's nodes, new links, outcome and the domain's reward. */
  private async feedBack(link: Link, outcome: WalkOutcome, result: ActResult | undefined): Promise<void> {
    const newLinks = result ? this.discover(result.links, link) : [];
    const reward = result?.reward ?? 0;
    const done = await this.ports.store.completePage({
      linkId: link.id,
      owner: this.opts.owner,
      status: statusOf(outcome),
      outcome: toStored(outcome),
      nodes: result?.nodes ?? [],
      newLinks,
      domainReward: reward,
      at: this.now(),
    });
    if (!done.applied) {
      this.stats.leaseLost++;
    } else {
      this.stats.record(outcome, link.host, done.newNodes, done.newLinks);
      if (reward) this.ports.strategy.reward(link.domainId, reward);
      if (done.newLinks > 0) await this.frontier.noteNewLinks(newLinks.map((l) => l.host));
    }
    this.frontier.finished(link.domainId, link.host);
  }

  /** Links found on a page, kept when the context and URI constraints allow them (the rest are not stored). */
  private discover(urls: string[], from: Link): LinkInput[] {
    const out: LinkInput[] = [];
    const seen = new Set<string>();
    for (const raw of urls) {
      if (seen.has(raw)) continue;
      seen.add(raw);
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        continue;
      }
      const c: Candidate = { url, depth: from.depth + 1, referrer: from.url };
      const v = this.ports.constraints.check(c, 'uri');
      if (!v.pass) {
        this.stats.dropped(v.constraint);
        continue;
      }
      out.push({ url: url.href, host: url.hostname.toLowerCase(), depth: from.depth + 1, queryId: from.queryId, referrerId: from.id });
    }
    return out;
  }

  domainsSeen(): number {
    return this.frontier.size();
  }

  /** Hosts this run stopped asking after errors in a row; their links stay pending. */
  hostsGivenUp(): string[] {
    return this.frontier.givenUp();
  }
}

function candidateOf(link: Link): Candidate {
  return { url: new URL(link.url), depth: link.depth, referrer: undefined };
}
