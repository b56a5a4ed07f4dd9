import { getHeapSpaceStatistics, setFlagsFromString, type HeapSpaceInfo } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A soft ceiling on a long run's heap. V8 lets the old generation fill with garbage before it
 * collects (a harvest keeps ~40 MB alive, yet its heap grew past 180 MB and its RSS to ~280 MB), and
 * a hard --max-old-space-size would end a run that meets one huge page. Instead the heap is
 * looked at every second and, when it has grown past the budget, collected in full. On a
 * 20,000-page harvest a budget of 128 MB took its peak RSS from 255–269 MB to 226–233 MB for about
 * 2 % more CPU (bench crawl; 96 MB: ~200 MB, and ~10 % more CPU). Since the store has a thread of
 * its own (store/thread.ts) the default is 64: at 128 a 100,000-page harvest peaked at
 * 258–262 MB, at 64 at 243 MB, still 14 % faster than on one thread (bench crawl's sweep).
 * Since the store's thread decides near-copies and keeps its candidates in memory, the main thread
 * holds less and the store's thread more: at 64 a 100,000-page harvest peaked at 267–272 MB, at
 * 56 at 256–257, at 48 at 227 and 242 MB, as fast as the code before at 64 (702–721 pages/s against
 * 652–713, 2.02–2.09 ms of CPU a page against 1.95–2.08; interleaved, 2026-11-29). Those budgets
 * were of V8's heapTotal, the young generation included, which no full collection shrinks: once
 * anwc ran Node with a young generation of 2 MB a semi-space (node-flags.ts) instead of the 16 it
 * grew to, the same 48 let the old generation grow further (a 100,000-page harvest: 250 MB), and
 * run without those flags, a heap of 32 MB would have been collected in full every second for its
 * young generation alone. The budget is of the old generation now (oldGeneration): 28 MB, the
 * heapTotal of 32 less the 4 MB young generation of the flags, peaked at 233 and 225 MB on that
 * harvest (heapTotal 32: 236 and 236; 24: 213–223 MB, for 0.24 ms of CPU a page more).
 * A forced collection costs more than its pause: optimised code compiled against the shapes it
 * lets go of is thrown away and compiled again (node-flags.ts). Since anwc runs Node with an old
 * generation that grows by half at most, V8's own collections hold the heap where the budget did,
 * and the budget is off by default. At 28, a 100,020-page harvest of the bench web still collected
 * in full from its 13th second on (61 times, each from some 20 MB in use to 19, with 2,721
 * deopts for "weak objects", --trace-gc --trace-deopt) and read 1,213 and 1,302 pages/s against
 * 1,423 and 1,430 without it, at the same peak RSS (196 and 195 MB against 197 and 195; two pairs
 * of runs, 2026-11-30); on 10,020 pages, where it never fired, 1,274 and 1,279 pages/s (4 rounds).
 *
 * Returns the function that stops it; a budget of 0 does nothing.
 */
export function keepHeapUnder(budgetMb: number, everyMs = 1000): () => void {
  if (budgetMb <= 0) return () => undefined;
  const collect = fullCollection();
  const limit = budgetMb * 1024 * 1024;
  const timer = setInterval(() => {
    if (oldGeneration(getHeapSpaceStatistics()) > limit) collect();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The spaces a full collection can shrink: all but the young generation's, which V8 keeps at its size. */
const YOUNG = new Set(['new_space', 'new_large_object_space']);

/** Bytes V8 holds for the old generation (code and large objects included): what the budget is of. */
export function oldGeneration(spaces: HeapSpaceInfo[]): number {
  return spaces.reduce((sum, s) => (YOUNG.has(s.space_name) ? sum : sum + s.space_size), 0);
}

/** V8's full collection: node gives it only under --expose-gc, which a running process can still turn on for a new context. */
function fullCollection(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
