import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Where ../shared (test data from outside the project) lives. Tests read it in place and never
 * copy it: ANWC_SHARED overrides, otherwise it sits beside the project's root (npm runs tests there).
 */
export const SHARED_DIR = resolve(process.env.ANWC_SHARED ?? resolve(process.cwd(), '..', 'shared'));

export function sharedPath(...parts: string[]): string {
  const p = resolve(SHARED_DIR, ...parts);
  if (!existsSync(p)) {
    throw new Error(`test data missing: ${p} (set ANWC_SHARED to the shared/ folder beside the project)`);
  }
  return p;
}
