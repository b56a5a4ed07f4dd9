/**
 * Where activities come from: a file the user names, or one of the samples shipped in the
 * package's activities/ folder, found by its activity name.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { packageRoot } from '../../package-root.js';
import { parseActivity } from './parse.js';
import type { Activity } from './spec.js';

const ACTIVITY_FILE = /\.(?:w4|json)$/i;
const SCHEMA = 'activity.schema.json';

export function builtinActivityDir(): string {
  return join(packageRoot(), 'activities');
}

export function loadActivityFile(file: string): Activity {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read activity file ${file}: ${code ?? (err as Error).message}`, { file, fix: 'check the path' });
  }
  return parseActivity(source, file);
}

/** The shipped samples, parsed, in file-name order. */
export function builtinActivities(): Activity[] {
  const dir = builtinActivityDir();
  return readdirSync(dir)
    .filter((f) => ACTIVITY_FILE.test(f) && f !== SCHEMA)
    .sort()
    .map((f) => loadActivityFile(join(dir, f)));
}

/** A path to a file, or the name of a shipped activity. */
export function findActivity(nameOrFile: string): Activity {
  if (existsSync(nameOrFile)) return loadActivityFile(nameOrFile);
  const all = builtinActivities();
  const hit = all.find((a) => a.name === nameOrFile);
  if (hit) return hit;
  throw new UserError(`no activity file or built-in activity named ${nameOrFile}`, {
    value: nameOrFile,
    fix: `give a file, or one of: ${all.map((a) => a.name).join(', ')} (anwc activity list)`,
  });
}
