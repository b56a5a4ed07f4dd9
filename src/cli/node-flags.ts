/**
 * The flags anwc runs Node with: main.ts's first line carries them for `anwc` and `npx anwc`, and
 * a command that starts anwc again (`--workers`, the studio's jobs, the benches) passes them on.
 *
 * A young generation of 2 MB a semi-space on the main thread (V8's default grows to 16). A
 * harvest's main thread makes short-lived garbage for every page, and at 16 MB it ran a full
 * collection every 150–200 ms (36–82 a 10,020-page harvest, --trace-gc) against 19 at 2 MB; the
 * threads beside it have had small young generations since they were made (store/thread.ts).
 * Six interleaved harvests of the crawl bench's web: 2.24/1.96/1.89/1.58/1.73/1.56 → 1.64/1.73/
 * 1.69/1.25/1.55/1.44 ms of CPU a page, pages/s median 878 → 943, peak RSS 192–213 → 183–185 MB;
 * four more, with the heap budget it now has (heap-budget.ts): median 2.05 → 1.69 ms a page, each
 * pair lower.
 * V8 reads it when the process starts, so it cannot be set from inside (v8.setFlagsFromString
 * leaves the young generation as it was).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/** `execArgv` with each of NODE_FLAGS it does not set already (a user's own value stays). */
export function withNodeFlags(execArgv: readonly string[]): string[] {
  const named = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');
  const given = new Set(execArgv.map(named));
  return [...execArgv, ...NODE_FLAGS.filter((f) => !given.has(named(f)))];
}
