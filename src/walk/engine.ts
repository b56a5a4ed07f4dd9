import { storageFault, type StorageFaultError } from '../errors.js';
import type { Link, LinkOrder, Store } from '../store/store.js';
import type { ActResult } from './act-result.js';
import type { FetchOutcome } from '../web/outcome.js';
import type { Politeness } from '../web/politeness.js';
import type { Candidate, ConstraintSet, DnsFacts, Verdict } from './constraints/constraint.js';
import { Scope } from './scope.js';
import type { FetchedPage, FetchResult } from './fetch-step.js';
import { Frontier, type Readiness } from './frontier.js';
import { toStored, type WalkOutcome } from './outcome.js';
import { dispose, type RetryPolicy } from './retry.js';
import { WalkStats } from './stats.js';
import { DelayWatch, type DelayWaits } from './delay-watch.js';
import { validatorsOf, type Validators } from '../web/validators.js';
import type { DomainStrategy } from './strategies/strategy.js';

export type { FetchedPage } from './fetch-step.js';

/**
 * The walker loop of DESIGN.md, in its five steps: pick (the strategy draws a ready domain,
 * politeness gives its host a slot, the store leases its next link) → filter (the activity's
 * context and URI constraints, cheapest first) → fetch (the fetch step: address policy, robots,
 * the request) → act (header and resource constraints, then the activity's actions on the page)
 * → feedBack (one transaction per page; a transient failure goes back with a not-before time;
 * the domain's reward on the wheel). Everything else lives beside it: the frontier view,
 * politeness, the scope (scope.ts: facts for constraints, pick-time refusals, discovery), constraints,
 * outcomes, retries, statistics.
 */

export type { ActResult, FoundLink } from './act-result.js';

export interface WalkPorts {
  store: Store;
  strategy: DomainStrategy;
  constraints: ConstraintSet;
  /** Per-host readiness, slots, delays and backoff: the one owner of "may this host be asked now". */
  politeness: Politeness;
  fetch(link: Link, signal: AbortSignal, method: 'GET' | 'HEAD', referer?: string): Promise<FetchResult>;
  /** DNS facts of a host for DNS-class constraints, under the fetch's address policy. */
  dns(host: string): Promise<{ facts: DnsFacts } | { outcome: WalkOutcome }>;
  /** Overrides the strategy's order of links within a domain (best-first walks: 'priority'). */
  linkOrder?: LinkOrder;
  act(page: FetchedPage, link: Link): Promise<ActResult>;
  /** HEAD for a link the activity only tests (a maintenance leaf): no body is asked for, GET only when HEAD is refused. */
  method?(link: Link): 'GET' | 'HEAD';
  /** Added to the domain's score after a page (the harvest: +1 when it yielded a node). */
  reward(outcome: WalkOutcome): number;
  /**
   * A page with a reward above 0 is as good as a seed: its links are depth 1, so a limit on depth
   * ends a walk that strays from what pays (tunnelling), not the reading of a good host found a
   * few hops out.
   */
  rewardResetsDepth?: boolean;
  retry: RetryPolicy;
  random: () => number;
  now?: () => number;
}

export interface WalkOptions {
  /** Pages fetched at once (and as many again read and stored behind them); per-host politeness still holds. */
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
  /** How often the wheel reads the scores other processes changed (ms): its staleness bound. */
  scoresRefreshMs?: number;
  /** URLs longer than this are not stored as links. */
  maxUrlLength?: number;
  /** Links stored from one page (DEFAULT_MAX_LINKS_PER_PAGE when not given); the rest are counted. */
  maxLinksPerPage?: number;
}

/**
 * How soon a host that other processes keep busy is asked again: 20 ms at first, twice as long
 * after each refusal in a row, at most a second. A fixed 20 ms made every worker but the one
 * holding a host ask for it fifty times a second, each a transaction on the server: with four
 * workers on one MariaDB the statements a page doubled (bench workers).
 */
export const BUSY_RETRY_MS = 20;
export const BUSY_RETRY_MAX_MS = 1000;

/**
 * Pages past their fetch (read by the action, then stored) a walk holds beside the `concurrency`
 * being fetched, as a share of it: a page's fetch slot is free once the server has answered, so
 * the next fetch overlaps the reading and storing of the last (bounded, so that a slow store
 * makes the fetching wait rather than hold ever more bodies in memory). Harvests of the crawl
 * bench's web at 16 slots, beside the slot held to the page's end (interleaved rounds,
 * 2026-11-30): on MariaDB 1.08, 1.06 and 1.03 times the pages/s (paired medians of three sets of
 * four), at half as many again 0.99; on SQLite 1.04, 0.99 and 1.06 (medians); on the real pages
 * of bench/real-web.ts, whose bound is the action's thread, 0.97 and 0.99, peak RSS 9-33 MB more.
 */
const PAST_FETCH_SHARE = 1;

/**
 * The most pages a walk with `concurrency` fetch slots holds at once where a page leaves its slot
 * once answered: those being fetched and those fetched, waiting to be read and stored.
 */
export function maxInFlight(concurrency: number): number {
  return concurrency * (1 + PAST_FETCH_SHARE);
}

/**
 * Links leased in one claim, when the walk takes a host's links oldest first: each claim is a
 * transaction of several statements (two round trips and a commit on MySQL), and the next few
 * links of a host are the same whether asked for now or one at a time. Started one by one under
 * this process's politeness; held, they are the host's live leases, so other processes leave the
 * host alone meanwhile, as they would for a page in flight. On a web of many hosts each would hold
 * a batch, every one renewed by each heartbeat and kept from the other processes, so the links
 * held at once stay under CLAIM_BATCH a fetch slot; past that a claim takes one.
 */
export const CLAIM_BATCH = 8;

export type StopReason = 'frontier-empty' | 'max-pages' | 'max-time' | 'interrupted';

export class Walker {
  readonly stats = new WalkStats();
  private readonly frontier: Frontier;
  private readonly inFlight = new Set<Promise<void>>();
  /** Refusals in a row of each domain another process holds. */
  private readonly busy = new Map<number, number>();
  /** Links a claim leased to this walker and not yet started, by domain. */
  private readonly held = new Map<number, Link[]>();
  private readonly abort = new AbortController();
  private stopReason: StopReason | undefined;
  private readonly started: number;
  private wake: (() => void) | undefined;
  /** Something finished since the loop last looked: set even when nobody waits, so no wake-up is lost. */
  private nudged = false;
  /** What stopped the run from storing its pages (the store went away), thrown by run(). */
  private failure: unknown;
  /** Since when no page has been in flight; undefined while one is. */
  private idleAt: number | undefined;
  /** How much of the time a free slot waited on a host's politeness delay. */
  private readonly delays: DelayWatch;

  private readonly scope: Scope;
  /** Pages in flight whose fetch is over: they are read and stored, and hold no fetch slot. */
  private pastFetch = 0;
  /**
   * Whether a page leaves its fetch slot once answered. Only where a host's next links are the
   * same whether or not its last page has been stored (links oldest first, as for the claim
   * batch): in newest-first order a page's own links go next. A walk of one slot stays the
   * thesis's crawler, each page stored before the next is drawn, so that its wheel and its new
   * hosts steer the very next draw.
   */
  private readonly pipelined: boolean;

  constructor(private readonly ports: WalkPorts, private readonly opts: WalkOptions) {
    this.pipelined = opts.concurrency > 1 && (ports.linkOrder ?? ports.strategy.linkOrder) === 'discovery';
    this.scope = new Scope(ports.store, ports.constraints, ports.dns, opts.maxUrlLength);
    const now = ports.now ?? Date.now;
    this.started = now();
    this.idleAt = this.started;
    this.delays = new DelayWatch(this.started);
    this.frontier = new Frontier(ports.store, ports.strategy, {
      maxPagesPerDomain: opts.maxPagesPerDomain,
      readiness: (host, at) => readiness(ports.politeness, host, at),
      now,
    });
  }

  private now(): number {
    return (this.ports.now ?? Date.now)();
  }

  /** Who this walker's leases belong to. */
  get owner(): string {
    return this.opts.owner;
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

  /**
   * Runs to a stop reason. When the store fails (it went away past its retries), the pages in
   * flight are let finish or fail, and the error is thrown: what was written stays written, and
   * the links of unwritten pages stay leased to this process, freed by the next run.
   */
  async run(): Promise<StopReason> {
    try {
      await this.loop();
    } catch (err) {
      this.failure ??= err;
      this.stop('interrupted');
    }
    await Promise.allSettled([...this.inFlight]);
    if (this.failure === undefined) await this.releaseHeld().catch((err) => (this.failure = err));
    if (this.failure !== undefined) throw this.failure;
    return this.stopReason ?? 'frontier-empty';
  }

  private async loop(): Promise<void> {
    await this.ports.store.releaseExpiredLeases(this.now());
    await this.frontier.load();
    let lastRescan = this.now();
    let lastScores = this.now();
    while (!this.stopReason) {
      this.checkBudgets();
      if (this.stopReason) break;
      while (this.freeSlots() > 0 && !this.stopReason && this.startsLeft() > 0) {
        // The free slots are filled at once, so that a store may take their claims together.
        const free = Math.min(this.freeSlots(), this.startsLeft());
        const links = (await Promise.all(Array.from({ length: free }, () => this.pick()))).filter((l) => l !== undefined);
        for (const link of links) this.track(this.walkOne(link));
        if (links.length < free) break;
      }
      if (this.now() - lastRescan > (this.opts.rescanMs ?? 30_000)) {
        await this.frontier.load();
        lastRescan = this.now();
      }
      if (this.now() - lastScores >= (this.opts.scoresRefreshMs ?? 1000)) {
        await this.frontier.refreshScores();
        lastScores = this.now();
      }
      const wakeAt = this.frontier.nextWakeAt();
      if (this.inFlight.size === 0 && wakeAt === undefined) {
        // Nothing waiting and nothing pending here; another process may have added links.
        await this.frontier.load();
        if (this.frontier.nextWakeAt() !== undefined || this.frontier.anyEligible()) continue;
        // Nothing of ours is in flight, so a lease in our name is one whose answer the store lost
        // (a connection that died after the commit): give it back rather than wait it out. The
        // links held go back with it, so they are no longer ours to start.
        this.held.clear();
        if ((await this.ports.store.releaseLeasesOf(this.opts.owner)) > 0) continue;
        // Links another process holds are not walked yet: it finishes them, or it died and their
        // leases run out and they become ours. Wait for either; only then is the frontier empty.
        if (!(await this.leasedElsewhere())) {
          this.stop('frontier-empty');
          continue;
        }
      }
      this.delays.waiting(this.delayWaitedOn(wakeAt), this.now());
      await this.idle(wakeAt);
      this.delays.waiting(undefined, this.now());
    }
  }

  /**
   * The host whose politeness delay the coming wait is for, when a fetch slot is free and a page
   * could start but for it: the first domain to wake is cooling on its host's delay (not on a
   * retry, a Retry-After or a backoff). Undefined when the wait is for anything else.
   */
  private delayWaitedOn(wakeAt: number | undefined): string | undefined {
    if (wakeAt === undefined || this.freeSlots() <= 0 || this.startsLeft() <= 0) return undefined;
    const next = this.frontier.nextWake();
    const host = next && this.ports.politeness.state(next.host);
    return host && host.reason === 'delay' && next.at <= host.nextAt && next.at > this.now() ? next.host : undefined;
  }

  /** The share of the last second or so that the walk waited on a politeness delay, when at least half. */
  delayBound(now = this.now()): DelayWaits | undefined {
    return this.delays.read(now);
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

  /** Fetch slots free, within the bound on pages past their fetch. */
  private freeSlots(): number {
    const fetching = this.inFlight.size - this.pastFetch;
    return Math.min(this.opts.concurrency - fetching, maxInFlight(this.opts.concurrency) - this.inFlight.size);
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
    this.idleAt = undefined;
    void p.finally(() => {
      this.inFlight.delete(p);
      if (this.inFlight.size === 0) this.idleAt = this.now();
      this.nudge();
    });
  }

  /** Since when nothing has been in flight (epoch ms); undefined while a page is. */
  idleSince(): number | undefined {
    return this.idleAt;
  }

  /** Waits until a page finishes, a waiting domain becomes ready, or stop() is called. */
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

  /**
   * Step 1: the strategy draws a ready domain; politeness gives its host a slot; the domain's next
   * link is one an earlier claim leased with others, or the store leases the next ones that are
   * due. The slot is taken before the lease so that no page of the host can start between the
   * draw and the fetch; it is given back when nothing was leased.
   */
  private async pick(): Promise<Link | undefined> {
    for (;;) {
      const domainId = this.frontier.draw(this.ports.random);
      if (domainId === undefined) return undefined;
      const host = this.frontier.host(domainId)!;
      const politeness = this.ports.politeness;
      if (!politeness.acquire(host, this.now())) {
        this.frontier.finished(domainId);
        continue;
      }
      const held = this.takeHeld(domainId);
      if (held) return this.starting(domainId, held);
      // The store holds the host's politeness for every process on the database: its claim is
      // the one that counts; this process's slot only keeps it from asking too often.
      const now = this.now();
      const order = this.ports.linkOrder ?? this.ports.strategy.linkOrder;
      const claim = await this.ports.store.claimNextLink(domainId, this.opts.owner, {
        leaseMs: this.opts.leaseMs, now, order, perHost: politeness.perHost, gapMs: politeness.delayOf(host),
        count: this.claimCount(domainId, order),
      });
      if ('links' in claim) {
        this.leftBusy(domainId);
        const [first, ...rest] = claim.links;
        if (rest.length > 0) this.held.set(domainId, rest);
        return this.starting(domainId, first!);
      }
      politeness.cancel(host, this.now());
      if ('waitUntil' in claim) this.frontier.exhausted(domainId, claim.waitUntil);
      // Another process holds the host's slots: look again when it may have asked again itself.
      else if ('busyUntil' in claim) this.frontier.exhausted(domainId, Math.max(claim.busyUntil, now + this.busyRetry(domainId)));
      else this.frontier.exhausted(domainId, await this.ports.store.nextDueAt(domainId));
    }
  }

  private starting(domainId: number, link: Link): Link {
    this.frontier.started(domainId);
    this.stats.pagesStarted++;
    return link;
  }

  /**
   * How many links to lease in a claim: a batch only in discovery order, where a host's next links
   * do not change as pages come back (in the other orders a page's new links may go first), and
   * never more than the run or the domain may still start.
   */
  private claimCount(domainId: number, order: LinkOrder): number {
    if (order !== 'discovery') return 1;
    let held = 0;
    for (const links of this.held.values()) held += links.length;
    const room = this.opts.concurrency * CLAIM_BATCH - held;
    return Math.max(1, Math.min(CLAIM_BATCH, room + 1, this.startsLeft(), this.frontier.budgetLeft(domainId)));
  }

  private takeHeld(domainId: number): Link | undefined {
    const links = this.held.get(domainId);
    const link = links?.shift();
    if (links?.length === 0) this.held.delete(domainId);
    return link;
  }

  /** The links claimed and not started go back to pending, for another process or the next run. */
  private async releaseHeld(): Promise<void> {
    const ids = [...this.held.values()].flat().map((l) => l.id);
    this.held.clear();
    if (ids.length > 0) await this.ports.store.releaseLinks(this.opts.owner, ids);
  }

  /**
   * A host taken after refusals is likely to be held again soon by the others: one refusal is
   * forgiven a take, so that a host the workers share stays asked for at the pace it frees up
   * instead of starting over at 20 ms after each page.
   */
  private leftBusy(domainId: number): void {
    const refusals = (this.busy.get(domainId) ?? 0) - 1;
    if (refusals > 0) this.busy.set(domainId, refusals);
    else this.busy.delete(domainId);
  }

  private busyRetry(domainId: number): number {
    const refusals = (this.busy.get(domainId) ?? 0) + 1;
    this.busy.set(domainId, refusals);
    return Math.min(BUSY_RETRY_MS * 2 ** (refusals - 1), BUSY_RETRY_MAX_MS);
  }

  /** Steps 2-5 for one link, holding a fetch slot until the server has answered. */
  private async walkOne(link: Link): Promise<void> {
    const slot: Slot = { answered: false, left: false };
    try {
      await this.walkSteps(link, slot);
    } finally {
      if (slot.left) this.pastFetch--;
    }
  }

  /** The page's fetch is over: its fetch slot is free, and its host may be drawn again if links of it are held. */
  private leaveSlot(link: Link, slot: Slot): void {
    if (slot.left || !this.pipelined) return;
    slot.left = true;
    this.pastFetch++;
    if (this.held.has(link.domainId)) this.frontier.finished(link.domainId);
    this.nudge();
  }

  /** The host's politeness slot is released with what the server said. */
  private async walkSteps(link: Link, slot: Slot): Promise<void> {
    let result: ActResult | undefined;
    let outcome: WalkOutcome;
    let validators: Validators | undefined;
    let fault: StorageFaultError | undefined;
    try {
      const c = await this.scope.candidate(link);
      const refusal = await this.scope.filter(c);
      if (refusal) {
        outcome = refusal;
      } else {
        const fetched = await this.fetchAndAct(link, c, slot);
        outcome = fetched.outcome;
        result = fetched.result;
        validators = fetched.validators;
      }
    } catch (err) {
      fault = storageFault(err);
      outcome = { kind: 'failed', failure: 'internal', detail: err instanceof Error ? err.message : String(err) };
    }
    if (!slot.answered) this.ports.politeness.cancel(link.host, this.now());
    if (fault) {
      // A full disk or a damaged file is no verdict on the page: it keeps its lease, freed by the
      // next run, which walks it again once there is room.
      this.failure ??= fault;
      this.stop('interrupted');
      return;
    }
    if (this.abort.signal.aborted) return;
    try {
      await this.feedBack(link, outcome, result, validators);
    } catch (err) {
      // The page could not be stored: the run stops, and run() reports why.
      this.failure ??= err;
      this.stop('interrupted');
    }
  }

  /**
   * Steps 3 and 4: header constraints on a HEAD when the activity has any (so a no costs no body),
   * then the GET, its header and resource constraints, and the actions. Both requests of a page
   * go out on the one politeness slot taken at pick; `slot.answered` once politeness has been told
   * what the server said last. robots.txt is asked before any request, so a fetched page is one
   * robots.txt allows.
   */
  private async fetchAndAct(link: Link, c: Candidate, slot: Slot): Promise<{ outcome: WalkOutcome; result?: ActResult; validators?: Validators }> {
    const signal = this.abort.signal;
    let last: FetchOutcome | undefined;
    const answer = (): void => {
      if (!last) return;
      this.ports.politeness.release(link.host, last, this.now(), link.url);
      slot.answered = true;
      this.leaveSlot(link, slot);
    };
    const facts = (page: FetchedPage): Candidate => ({ ...c, headers: page.headers, robotsAllowed: true, now: this.now() });
    if (this.ports.method?.(link) === 'HEAD') {
      const head = await this.ports.fetch(link, signal, 'HEAD', c.referrer);
      last = head.http;
      if ('page' in head) {
        answer();
        const v = this.ports.constraints.check(facts(head.page), 'header', 'header');
        if (!v.pass) return { outcome: rejected(v) };
        const result = await this.ports.act(head.page, link);
        return { outcome: result.outcome, result };
      }
      // Servers that do not do HEAD say so with 405 or 501; those links get the GET below.
      const refusedHead = head.outcome.kind === 'http-error' && (head.outcome.status === 405 || head.outcome.status === 501);
      if (!refusedHead) {
        answer();
        return { outcome: head.outcome, result: head.links ? { outcome: head.outcome, nodes: [], links: head.links } : undefined };
      }
    } else if (this.ports.constraints.needs('header')) {
      const head = await this.ports.fetch(link, signal, 'HEAD', c.referrer);
      last = head.http;
      if ('page' in head) {
        const v = this.ports.constraints.check(facts(head.page), 'header', 'header');
        if (!v.pass) {
          answer();
          return { outcome: rejected(v) };
        }
      } else if (!head.http || head.outcome.kind === 'refused' || head.outcome.kind === 'robots') {
        answer();
        return { outcome: head.outcome };
      }
      // A HEAD the server refused or failed (405, 501, a dropped connection) falls back to the GET.
    }
    const got = await this.ports.fetch(link, signal, 'GET', c.referrer);
    last = got.http ?? last;
    answer();
    if (!('page' in got)) {
      return { outcome: got.outcome, result: got.links ? { outcome: got.outcome, nodes: [], links: got.links } : undefined };
    }
    const page = got.page;
    const v = this.ports.constraints.check({
      ...facts(page),
      get body() {
        return page.text;
      },
    }, 'resource', 'header');
    if (!v.pass) return { outcome: rejected(v) };
    const result = await this.ports.act(got.page, link);
    return { outcome: result.outcome, result, validators: validatorsOf(got.page.headers) };
  }

  /**
   * Step 5: one transaction stores the page's nodes, new links, outcome and the domain's reward;
   * a transient failure with retries left puts the link back until its not-before time instead.
   */
  private async feedBack(link: Link, found: WalkOutcome, result: ActResult | undefined, validators?: Validators): Promise<void> {
    const reward = this.ports.reward(found);
    const depth = this.ports.rewardResetsDepth && reward > 0 ? 1 : link.depth + 1;
    const { links: newLinks, cut } = result
      ? await this.scope.discover(result.links, link, (rule) => this.stats.dropped(rule), this.opts.maxLinksPerPage, depth)
      : { links: [], cut: 0 };
    // The page's record says how many of its links the cap left unread, for `anwc why`.
    const outcome = cut > 0 && 'links' in found ? { ...found, linksCut: cut } : found;
    const now = this.now();
    const next = dispose(outcome, link.attempts, this.ports.retry, now);
    const done = await this.ports.store.completePage({
      linkId: link.id,
      owner: this.opts.owner,
      status: next.status,
      notBefore: next.status === 'pending' ? next.notBefore : null,
      attempted: next.status !== 'pending' || next.attempted,
      outcome: toStored(outcome),
      nodes: result?.nodes ?? [],
      newLinks,
      domainReward: reward,
      hostNextAt: this.ports.politeness.state(link.host)?.nextAt,
      ...(validators ?? {}),
      at: now,
    });
    if (!done.applied) {
      this.stats.leaseLost++;
    } else {
      this.scope.stored(newLinks);
      if (next.status === 'pending') this.stats.retryScheduled(outcome);
      else this.stats.record(outcome, link.host, done.newNodes, done.newLinks, cut);
      if (reward) this.ports.strategy.reward(link.domainId, reward);
      if (done.newLinks > 0) await this.frontier.noteNewLinks(newLinks.map((l) => l.host));
      if (next.status === 'pending') await this.frontier.noteNewLinks([link.host]);
    }
    this.frontier.finished(link.domainId);
  }

  domainsSeen(): number {
    return this.frontier.size();
  }

  /** Hosts this run stopped asking after errors in a row; their links stay pending. */
  hostsGivenUp(): string[] {
    return this.frontier.givenUp();
  }
}

/**
 * A page's hold on its slots: `answered` once politeness has been told what the server said (an
 * action that throws after that must not give the host's slot back a second time), `left` once
 * the page no longer holds a fetch slot.
 */
interface Slot {
  answered: boolean;
  left: boolean;
}

function readiness(politeness: Politeness, host: string, now: number): Readiness {
  if (politeness.state(host)?.gaveUp) return 'gave-up';
  const at = politeness.nextReadyAt([host]);
  return at === undefined ? 'busy' : Math.max(at, now);
}

function rejected(v: Verdict & { pass: false }): WalkOutcome {
  return { kind: 'rejected', constraint: v.constraint, cost: v.cost, ...(v.detail ? { detail: v.detail } : {}) };
}
