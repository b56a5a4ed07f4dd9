#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { VERSION } from '../version.js';
import { CONFIG_FILE } from './config-name.js';
import { quietOnBrokenPipe } from './pipe.js';
import { HELP_WIDTH, helpPageName, storedHelp } from './help-pages.js';

/*
 * The commands that need no option are answered before the CLI loads: yargs and the modules of
 * every option are most of a command's start (bench crawl's start-up table), and `anwc --version`
 * or `anwc stem words` (a script's check, a stemmer in a pipe) uses none of them, and help is
 * the full CLI's own, printed at build time (help-pages.ts). Any flag, or a configuration file
 * that the full CLI would check first, goes to cli.ts, as does every other command.
 */
const args = process.argv.slice(2);
const [command, ...rest] = args;
const page = helpPageName(args);
const wide = !process.stdout.isTTY || (process.stdout.columns ?? HELP_WIDTH) >= HELP_WIDTH;
const help = page !== undefined && wide ? storedHelp(page) : undefined;
if (command === '--version' && rest.length === 0) {
  process.stdout.write(`${VERSION}\n`);
} else if (help !== undefined) {
  quietOnBrokenPipe(process.stdout);
  process.stdout.write(help);
} else if (command === 'stem' && !rest.some((a) => a.startsWith('-')) && !existsSync(CONFIG_FILE)) {
  quietOnBrokenPipe(process.stdout);
  try {
    await (await import('./stem-lines.js')).stemLines(rest, process.stdin, process.stdout);
  } catch (err) {
    process.exitCode = (await import('./run.js')).reportError(err);
  }
} else {
  await import('./cli.js');
}
