import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { UserError } from '../errors.js';

/**
 * Writes a whole output file (a report, a map) so that a reader never sees half of it: into a
 * temporary file beside it, then renamed over it. A folder or an unwritable place is the user's
 * to fix, said in one line.
 */
export function writeWhole(path: string, content: string, flag: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // Not there yet: written below.
  }
  if (isDir) throw new UserError(`${flag} names a folder`, { value: path, fix: `give a file name, e.g. ${path.replace(/\/+$/, '')}/report.html` });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new UserError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { value: path, fix: `check that the folder of ${flag} exists and is writable` });
  }
}
