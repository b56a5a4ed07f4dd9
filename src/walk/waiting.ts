import type { Store, WaitingRetries } from '../store/store.js';

/**
 * What a walk with nothing in flight is waiting for, for its progress line: the links whose retry
 * (or robots.txt) is not due yet, every process's, read from the store. The store is asked only
 * once the walk has been idle IDLE_MS, and then at most every ASK_EVERY_MS, so a crawl at work
 * never pays for the scan: a short delay between two pages of a host is not a wait worth saying.
 */

export const IDLE_MS = 2000;
const ASK_EVERY_MS = 5000;

export class WaitingWatch {
  private known: WaitingRetries | undefined;
  private askedAt = -Infinity;
  private asking: Promise<void> | undefined;

  constructor(private readonly store: Store) {}

  /**
   * `idleSince`: since when nothing has been in flight (undefined while something is). The wait
   * as last read, or undefined when the walk is at work or nothing waits; a store that cannot
   * answer now is asked again later.
   */
  async read(idleSince: number | undefined, now: number): Promise<WaitingRetries | undefined> {
    if (idleSince === undefined || now - idleSince < IDLE_MS) {
      this.known = undefined;
      this.askedAt = -Infinity;
      return undefined;
    }
    if (!this.asking && now - this.askedAt >= ASK_EVERY_MS) {
      this.askedAt = now;
      this.asking = this.store.waitingRetries(now).then(
        (w) => void (this.known = w ?? undefined),
        () => undefined,
      ).finally(() => (this.asking = undefined));
      await this.asking;
    }
    return this.known && this.known.nextAt > now ? this.known : undefined;
  }
}
