/**
 * The flags anwc runs Node with: main.ts's first line carries them for `anwc` and `npx anwc`, and
 * a command that starts anwc again (`--workers`, the studio's jobs, the benches) passes them on.
 *
 * Two flags. A young generation of 2 MB a semi-space, for the main thread and the store's: V8
 * takes the flag over a worker's own resourceLimits (store/thread.ts), which rule only where Node
 * runs without it.
 * The narrative action's thread, where the pages' trees are built, is started with 8
 * (young-generation.ts, walk/actions/narrative-thread.ts). It is the memory goal's choice (a
 * 100,000-page harvest of the crawl bench's web under 250 MB), not speed's; the table is of the
 * flag for every thread, before the action's thread had its own:
 *
 * | semi-space | bench web, 10,020 pages: pages/s, CPU ms a page, peak RSS | 100,020 pages: peak RSS | real pages, 2,020: pages/s, CPU ms a page, peak RSS |
 * | --- | --- | --- | --- |
 * | 2 MB | 972, 1.56, 183 MB | 225–233 MB | 135, 10.9, 249–275 MB |
 * | 4 MB | 1,006, 1.50, 197 MB | 240 MB | 136, 10.7, 286–294 MB |
 * | 8 MB | 1,098, 1.38, 221 MB | 270 MB (262 at --heap-budget 20) | 167, 8.9, 303–327 MB |
 *
 * (Medians of 4 and 3 interleaved harvests, one each at 100,000, 2026-11-29; the real pages are
 * bench/real-web.ts's.)
 * A 100 kB page's tree outlives a young generation of 2 MB: it is copied by the scavenges that
 * meet it and then promoted (781 scavenges for 438 such pages, against 180 at 8 MB), which is why
 * the action's thread now has 8 of its own. With it, the flag at 8 for every thread reads 92 → 94
 * real pages a second for 289 → 331 MB (3 interleaved rounds); the 100,000-page harvest with the
 * action's thread at 8 peaked at 242 and 247 MB, against 242 and 240 at 2 (one pair of rounds).
 * Since a body sent in chunks starts in the room of its first chunk (web/body.ts), that harvest
 * peaked at 196 MB at 2 and at 220 with the flag at 8 for every thread (one run each): the memory
 * goal leaves room for 8 now. It read the bench web's 10,020 pages at 587 → 624 pages/s (3
 * interleaved rounds, 162 → 185 MB), within this machine's noise; 2 stays until a surer measure.
 * A user's own value stays, in the workers and jobs anwc starts too (withNodeFlags).
 *
 * When the heap budget was still of V8's heapTotal, the young generation included (heap-budget.ts),
 * 2 MB was the faster too: at V8's default of 16 MB the main thread ran a full collection every
 * 150–200 ms (--trace-gc), and six interleaved harvests of the bench web went 1.81 → 1.59 ms of CPU
 * a page (median) at 2 MB.
 * V8 reads it when a thread makes its heap: the main thread's is made when the process starts, so
 * it cannot be set from inside (v8.setFlagsFromString leaves the main thread's young generation as
 * it was, and changes that of the threads started after).
 *
 * An old generation that grows by half at most after each full collection
 * (`--heap-growing-percent=50`, for every thread; V8 otherwise grows it by up to four times when
 * its collections are quick). The heap budget (heap-budget.ts) held the main thread's old
 * generation under 28 MB by collecting in full once a second, and a forced collection lets go of
 * the object shapes that optimised code was compiled against: each cost some 45 functions their
 * optimised code (`--trace-deopt`: "weak objects", 281 in a 10,020-page harvest), and compiling
 * them again took V8's helper threads 4.2 s of a 9-s harvest where 2.7 s did without the budget
 * (`--trace-opt`). Growing by half, V8's own collections keep the bench web's 10,020-page harvest
 * under the budget without one forced collection, and a 100,020-page one as low without the
 * budget at all, which is now off by default (heap-budget.ts). Measured 2026-11-30 against the
 * flag left out (interleaved harvests, medians): the bench web's 10,020 pages 1,186 → 1,259
 * pages/s, 1.34 → 1.25 ms of CPU a page, peak RSS 173 → 158 MB (4 rounds; 20 %: 1,252, 100 %:
 * 1,220); 100,020 pages 1,345 → 1,479 pages/s, 215 → 196 MB (one each); on MariaDB 564 → 560
 * pages/s, 182 → 161 MB (3 rounds); the real pages of bench/real-web.ts, where the action's
 * thread is the bound and its trees now meet more full collections, 152 → 148 and 154 → 144
 * pages/s, 9.8 → 10.5 ms, peak RSS 315 → 250 and 318 → 244 MB (two sets of 4 rounds).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50'];

/** `execArgv` with each of NODE_FLAGS it does not set already (a user's own value stays). */
export function withNodeFlags(execArgv: readonly string[]): string[] {
  const named = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');
  const given = new Set(execArgv.map(named));
  return [...execArgv, ...NODE_FLAGS.filter((f) => !given.has(named(f)))];
}
