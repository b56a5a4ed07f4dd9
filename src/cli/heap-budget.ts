import { setFlagsFromString } from 'node:v8';
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
 * 652–713, 2.02–2.09 ms of CPU a page against 1.95–2.08; interleaved, 2026-11-29). The budget is of
 * V8's heapTotal, the young generation's space included: since anwc runs Node with a young
 * generation of 2 MB a semi-space (node-flags.ts) instead of the 16 it grew to, the same budget let
 * the old generation grow further, and a 100,000-page harvest peaked at 250 MB at 48 (one run),
 * 236 and 236 MB at 32 and 213–223 MB at 24, which cost 0.24 ms of CPU a page more than 32
 * (interleaved pairs); at 10,000 pages 32 and 48 ran alike (1.69 and 1.76 ms a page, four
 * interleaved runs each): 32 is the default.
 *
 * Returns the function that stops it; a budget of 0 does nothing.
 */
export function keepHeapUnder(budgetMb: number, everyMs = 1000): () => void {
  if (budgetMb <= 0) return () => undefined;
  const collect = fullCollection();
  const limit = budgetMb * 1024 * 1024;
  const timer = setInterval(() => {
    if (process.memoryUsage().heapTotal > limit) collect();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** V8's full collection: node gives it only under --expose-gc, which a running process can still turn on for a new context. */
function fullCollection(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
