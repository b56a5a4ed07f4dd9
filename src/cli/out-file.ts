import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { makeFolder } from '../make-folder.js';
import { writeFileAtomic } from '../atomic-file.js';
import { storageFault, UserError } from '../errors.js';

/**
 * Writes a whole output file (a report, a map) so that a reader never sees half of it: into a
 * temporary file beside it, then renamed over it. A folder or an unwritable place is the user's
 * to fix, said in one line; a full disk is not (exit 5).
 */
export function writeWhole(path: string, content: string, flag: string): void {
  refuseFolder(path, flag);
  try {
    writeFileAtomic(path, content);
  } catch (err) {
    const fault = storageFault(err, path);
    if (fault) throw fault;
    throw new UserError(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { value: path, fix: `check that the folder of ${flag} exists and is writable` });
  }
}

/** Each --out names a format by its extension; one that names none is the user's to fix, before any work. */
export function checkOutFormats(outs: readonly string[], formats: readonly string[], what: string): void {
  for (const o of outs) {
    if (!formats.includes(extname(o).toLowerCase())) {
      throw new UserError(`--out ${o}: no ${what} format for ${extname(o) || 'a name without an extension'}`, { value: o, fix: `end the name with one of ${formats.join(' ')}` });
    }
  }
}

/**
 * Makes sure each output file can be written before any work starts (a walk of many minutes that
 * then cannot save its result is work lost): its folder is created if missing, as wget and
 * linkinator do, and a name that is a folder, or a folder that cannot be made or written, is the
 * user's to fix, said in one line.
 */
export function prepareOuts(paths: readonly string[], flag: string): void {
  for (const path of paths) {
    refuseFolder(path, flag);
    const folder = dirname(resolve(path));
    try {
      makeFolder(folder);
      // A file made and removed, as writeWhole will make its temporary one: the mode bits
      // (accessSync) pass for root, and say nothing of /proc or a read-only mount.
      const probe = join(folder, `.anwc-write-probe-${process.pid}`);
      writeFileSync(probe, '');
      rmSync(probe, { force: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new UserError(`cannot write ${path}: its folder ${folder} cannot be made or written (${code})`, { value: path, fix: `give ${flag} a path in a folder you can write to` });
    }
  }
}

/** An output file's name that names a folder is the user's to fix. */
function refuseFolder(path: string, flag: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // Not there yet: nothing in the way.
  }
  if (isDir) throw new UserError(`${flag} names a folder`, { value: path, fix: `give a file name, e.g. ${path.replace(/\/+$/, '')}/report${extname(path) || '.html'}` });
}
