/**
 * Whether the politeness delay, not the network, sets a walk's pace: the share of the time the
 * walker had a free fetch slot and sat waiting for a host's delay (or Crawl-delay) to run out.
 * The walker says when such a wait begins and ends; the progress line reads the share about once
 * a second. Counting in memory, no store question: a crawl at work pays nothing for it.
 */

/** A window in which the walk waited on the delay at least this share of its time is bounded by it. */
export const BOUND_SHARE = 0.5;
/** Shorter windows say too little: the last verdict stands until a window this long has passed. */
export const MIN_WINDOW_MS = 900;

export interface DelayWaits {
  /** Share of the window spent waiting on a host's delay with a fetch slot free, 0 to 1. */
  share: number;
  /** The host waited on longest in the window. */
  host: string;
  /** Hosts waited on in the window. */
  hosts: number;
}

/** What the progress line needs to say the delay bounds the walk, and how to lift it. */
export interface DelayBound extends DelayWaits {
  /** The delay in force at the host (ms): --delay, or its Crawl-delay when that is longer. */
  delayMs: number;
  /** The walk's --delay (ms). */
  baseDelayMs: number;
  perHost: number;
  concurrency: number;
}

export class DelayWatch {
  private windowStart: number;
  private waitedMs = 0;
  private readonly byHost = new Map<string, number>();
  private current: { host: string; since: number } | undefined;
  private verdict: DelayWaits | undefined;

  constructor(now: number) {
    this.windowStart = now;
  }

  /** The walker waits, from `now`, for `host`'s delay (undefined: for something else, or not at all). */
  waiting(host: string | undefined, now: number): void {
    this.close(now);
    if (host !== undefined) this.current = { host, since: now };
  }

  private close(now: number): void {
    if (!this.current) return;
    const ms = Math.max(0, now - this.current.since);
    this.waitedMs += ms;
    this.byHost.set(this.current.host, (this.byHost.get(this.current.host) ?? 0) + ms);
    this.current = undefined;
  }

  /**
   * The waits of the window that ends now, when the delay bounded it (at least BOUND_SHARE of its
   * time); undefined when it did not. A wait in progress counts up to now and goes on in the next.
   */
  read(now: number): DelayWaits | undefined {
    const span = now - this.windowStart;
    if (span < MIN_WINDOW_MS) return this.verdict;
    const going = this.current?.host;
    this.close(now);
    if (going !== undefined) this.current = { host: going, since: now };
    const share = Math.min(1, this.waitedMs / span);
    let top: [string, number] | undefined;
    for (const entry of this.byHost) if (!top || entry[1] > top[1]) top = entry;
    this.verdict = top && share >= BOUND_SHARE ? { share, host: top[0], hosts: this.byHost.size } : undefined;
    this.windowStart = now;
    this.waitedMs = 0;
    this.byHost.clear();
    return this.verdict;
  }
}
