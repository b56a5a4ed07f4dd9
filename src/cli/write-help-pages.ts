import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeFolder } from '../make-folder.js';
import { FULL_CLI, HELP_DIR, TOP } from './help-pages.js';

/** Prints every page with the full CLI (in an empty folder, into a pipe) and stores it. */
export async function writeHelpPages(names: readonly string[], dir = HELP_DIR): Promise<void> {
  const run = promisify(execFile);
  const cwd = mkdtempSync(join(tmpdir(), 'anwc-help-'));
  makeFolder(dir);
  try {
    const pages = [TOP, ...names];
    // Two at a time: the build machine may have no more cores.
    for (let i = 0; i < pages.length; i += 2) {
      await Promise.all(pages.slice(i, i + 2).map(async (name) => {
        const args = name === TOP ? ['--help'] : [name, '--help'];
        const { stdout } = await run(process.execPath, [FULL_CLI, ...args], { cwd, env: { ...process.env, COLUMNS: '' } });
        writeFileSync(join(dir, `${name}.txt`), stdout);
      }));
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { ABOUT } = await import('./commands/about.js');
  await writeHelpPages(Object.keys(ABOUT));
}
