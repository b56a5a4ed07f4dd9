import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`: the folder and each missing one above it, made one at a time from the top. Node's own
 * (`mkdirSync(path, { recursive: true })`) tries again for ever where a folder exists but will not
 * take the one asked for with ENOENT, as /proc and /sys answer: `--out /proc/x` hung `anwc archive`
 * and `anwc map`, and `--db sqlite:/proc/x/db.sqlite` hung `anwc import`. Here that is an error
 * (its code, e.g. ENOENT, EACCES, ENOTDIR) for the caller to word.
 */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  for (let p = resolve(path); !existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  // A file where the folder should be, as mkdir says it (a file above it fails its own mkdir below).
  if (missing.length === 0 && !statSync(path).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: 'EEXIST', path });
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (err) {
      // Made meanwhile by another process: what counts is that it is there.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
