import { appendFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolder } from './make-folder.js';

/**
 * Writes a whole file so that a reader never sees half of it: into a temporary file beside it,
 * then renamed over it (rename is atomic within a file system). Errors are the caller's to word.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mkdir?: boolean } = {}): void {
  if (opts.mkdir) makeFolder(dirname(path));
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw withPath(err, path);
  }
}

/**
 * Appends all of `data` or none of it: a write cut short (a full disk) is cut off again, so that
 * the next append does not land after half a record.
 */
export function appendWhole(path: string, data: string | Uint8Array): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    size = 0;
  }
  try {
    appendFileSync(path, data);
  } catch (err) {
    try {
      truncateSync(path, size);
    } catch {
      // The file may not exist (the append failed to create it); nothing was added then.
    }
    throw withPath(err, path);
  }
}

/** A write(2) error names no file; the caller's message should. */
function withPath(err: unknown, path: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && e.path === undefined) e.path = path;
  return err;
}
