import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Where ../shared (test data from outside the project) lives. Tests read it in place and never
 * copy it: ANWC_SHARED overrides, otherwise it sits beside the project's root (npm runs tests there).
 */
export const SHARED_DIR = resolve(process.env.ANWC_SHARED ?? resolve(process.cwd(), '..', 'shared'));

/**
 * A bare clone has no ../shared: the suites that read it are skipped, each with one line saying
 * what is missing and how to give it. CI sets ANWC_REQUIRE_SHARED=1, where a missing part fails
 * the suite instead, so that a skip can never pass for a run there.
 */
export function needsShared(...parts: string[]): false | string {
  const missing = parts.map((p) => resolve(SHARED_DIR, p)).filter((p) => !existsSync(p));
  if (missing.length === 0) return false;
  const reason = `needs ${missing.join(', ')} (set ANWC_SHARED to the shared/ folder beside the project)`;
  if (process.env.ANWC_REQUIRE_SHARED === '1') throw new Error(`test data missing: ${reason}`);
  return reason;
}

/** A path under ../shared that the suite asked for with needsShared; a missing one fails the test at once. */
export function sharedPath(...parts: string[]): string {
  const p = resolve(SHARED_DIR, ...parts);
  if (!existsSync(p)) {
    throw new Error(`test data missing: ${p} (set ANWC_SHARED to the shared/ folder beside the project)`);
  }
  return p;
}
