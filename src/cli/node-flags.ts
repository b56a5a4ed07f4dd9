import v8 from 'node:v8';

/**
 * The V8 flag anwc sets for itself when its full CLI loads (cli.ts), for every thread of the
 * process: an old generation that grows by half at most after each full collection
 * (`--heap-growing-percent=50`; V8 otherwise grows it by up to four times when its collections are
 * quick). It keeps a long crawl's memory low without forced collections: the heap budget
 * (heap-budget.ts), which collected in full once a second, made V8 drop the optimised code of some
 * 45 functions at each (`--trace-deopt`: "weak objects", 281 in a 10,020-page harvest), and
 * compiling it again took V8's helper threads 4.2 s of a 9-s harvest where 2.7 s did without.
 * Measured 2026-11-30 against the flag left out (interleaved harvests, medians): the bench web's
 * 10,020 pages 1,186 → 1,259 pages/s, peak RSS 173 → 158 MB; 100,020 pages 215 → 196 MB.
 *
 * Set from inside, not on the command line (`#!/usr/bin/env -S node FLAGS`, as anwc did until
 * 2026-12-06): any flag of V8's heap on Node's command line makes Node compile its own modules
 * without the code cache built for its default flags, which cost every command, `anwc --version`
 * included, 6 to 19 ms of a start of 100 to 150 (`node -e 0` 100.8 ms of CPU, with
 * `--max-semi-space-size=2` 106.8, with `--heap-growing-percent=50` 107.6; `anwc stem walking`
 * 154 → 134 ms without both; 30 interleaved runs each). The growth cap read from inside works as
 * from the command line (test/cli/node-flags.test.ts counts the full collections).
 *
 * The main thread's young generation is V8's default (up to 16 MB a semi-space): it is made when
 * the process starts, and only the command line sets it. At 2 MB, as the command line had it, a
 * 10,020-page harvest of the bench web read 1,003 pages/s (CPU 1.53 ms a page) for 157 MB of peak
 * RSS, at the default 999 (1.54 ms) for 185 MB; the 100,020-page one 1,232 → 1,261 pages/s,
 * 195 → 224 MB (6 paired rounds and one, 2026-12-06). The main thread's garbage outlives a young
 * generation of 2 MB (a page in flight lives some 16 ms, and a scavenge came every 25: 403 in
 * 10 s), so its scavenges took 733 ms of that harvest at 2 MB and 315 at 16 (--trace-gc); a
 * fifth to a third of what they met survived. The threads anwc starts have their own young
 * generations (store/thread.ts, walk/actions/narrative-thread.ts). A process anwc starts again
 * (`--workers`, the studio's jobs) runs the full CLI, which sets the flag there too, and gets the
 * user's own flags (`process.execArgv`) as given.
 */
export const RUNTIME_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/** The name of a flag as V8 reads it: `--a_b=1` and `--a-b=2` name one flag. */
const nameOf = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');

/** Each of RUNTIME_FLAGS the user did not set (on the command line or in NODE_OPTIONS): a user's own value stays. */
export function flagsToSet(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((a) => a.startsWith('--')).map(nameOf));
  return RUNTIME_FLAGS.filter((f) => !given.has(nameOf(f)));
}

/** Sets flagsToSet() in V8; what it set. */
export function applyNodeFlags(): string[] {
  const flags = flagsToSet();
  for (const f of flags) v8.setFlagsFromString(f);
  return flags;
}
