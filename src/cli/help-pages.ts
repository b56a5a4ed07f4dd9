import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * `anwc --help` and `anwc COMMAND --help` printed at build time by the full CLI
 * (write-help-pages.ts) and kept as files, so that the entry answers them without loading yargs
 * and the option table (about 150 ms of a 250 ms start; bundling the CLI saved under 10 ms of it).
 * A page serves only while it is newer than the compiled CLI: a build that did not write the pages
 * again leaves the help to yargs. yargs wraps help to the terminal, at most 100 columns: a page is
 * the help of a pipe or of a terminal at least that wide.
 */

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const HELP_DIR = join(HERE, 'help');
export const FULL_CLI = join(HERE, 'cli.js');
export const HELP_WIDTH = 100;
/** The page of `anwc --help`; no command has this name. */
export const TOP = 'anwc';

/** The page the arguments ask for, if they only ask for help: `--help`, or `COMMAND --help` (or -h). */
export function helpPageName(args: readonly string[]): string | undefined {
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h';
  if (args.length === 1 && isHelp(args[0])) return TOP;
  // A name is only letters and dashes: a page never names a path of the user's choosing.
  if (args.length === 2 && isHelp(args[1]) && /^[a-z][a-z-]*$/.test(args[0]!)) return args[0];
  return undefined;
}

/** The stored page, when it is there and newer than the CLI that printed it. */
export function storedHelp(name: string, dir = HELP_DIR, cli = FULL_CLI): string | undefined {
  try {
    const file = join(dir, `${name}.txt`);
    if (statSync(file).mtimeMs < statSync(cli).mtimeMs) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
