import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a whole file so that a reader never sees half of it: into a temporary file beside it,
 * then renamed over it (rename is atomic within a file system). Errors are the caller's to word.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mkdir?: boolean } = {}): void {
  if (opts.mkdir) mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
