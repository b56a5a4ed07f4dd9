import { createRequire } from 'node:module';
import type { Argv, CommandModule } from 'yargs';
import { ABOUT, COMMANDS, type CommandName } from './commands/index.js';
import { fillFromFile, OPTIONS, useConfigValues, type OptionSpec } from './options.js';
import { loadConfigFile } from './config-file.js';
import { UserError } from '../errors.js';
import { nearest } from '../walk/activity/errors.js';
import { redact } from '../store/url.js';
import { reportError } from './run.js';
import { EXIT } from './exit.js';
import { quietOnBrokenPipe } from './pipe.js';
import { VERSION } from '../version.js';
import { HELP_WIDTH } from './help-pages.js';
import { applyNodeFlags } from './node-flags.js';

/*
 * yargs 17 through its CommonJS build. Its ES module build wraps help in the middle of words
 * (yargs#2112); yargs 18 wraps well but builds an Intl.Segmenter and Unicode-set regular
 * expressions as it loads, about 40 ms of every command's start (issue: speed).
 */
const yargs = createRequire(import.meta.url)('yargs/yargs') as (args: string[]) => Argv;

/** What the user typed for a flag, `--name=value` or `--name value` (yargs gives NaN for a number it could not read). */
export function typedValue(args: readonly string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
}

/**
 * Whether a flag that takes a value was typed bare (`--max-pages` at the end, or before another
 * flag): yargs reads it as no value for a number, '' for a string and [] for a list, and a crawl
 * asked for a page budget would run without one.
 */
function typedBare(args: readonly string[], name: string, spec: OptionSpec, value: unknown): boolean {
  if (spec.type === 'boolean') return false;
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (!empty) return false;
  const camel = name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  const forms = new Set([`--${name}`, `--${camel}`, ...(spec.alias ? [`-${spec.alias}`] : [])]);
  // `--hosts ''` is a value, one that empties what a configuration file gave.
  return args.some((a, i) => forms.has(a) && (args[i + 1] === undefined || /^--?[a-zA-Z]/.test(args[i + 1]!)));
}

/** Checks every given option against its table entry before any command runs. */
function checkOptions(argv: Record<string, unknown>, args: string[]): void {
  const help = helpOf(args);
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    const value = argv[name];
    if (typedBare(args, name, spec, value)) {
      throw new UserError(`--${name} needs a value`, { fix: `put it after the flag; ${help} says what it takes` });
    }
    if (value === undefined || !spec.check) continue;
    if (typeof value === 'number' && Number.isNaN(value)) {
      throw new UserError(`--${name} needs a number`, { value: typedValue(args, name) ?? String(value), fix: `see ${help}` });
    }
    const fix = spec.check(value);
    if (fix) throw new UserError(`--${name} is not valid`, { value: spec.secret ? redact(String(value)) : String(value), fix });
  }
}

let orphaned = false;

/**
 * A child of the studio or of `harvest --workers` gets a channel to its parent. A parent that dies
 * without a word (SIGKILL, a crash) closes it: the child stops as at Ctrl-C, finishing its pages
 * in flight and saving, and no harvest runs on that nobody watches or can stop. Nobody reads its
 * output any more, so a broken pipe no longer ends it before it has saved.
 */
function stopWithParent(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => {
    orphaned = true;
    quietOnBrokenPipe(process.stderr, () => orphaned);
    process.kill(process.pid, 'SIGINT');
  });
}

/** The command the arguments name: the first word that is not an option or the value of --config. */
export function commandNamed(args: string[]): CommandName | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--config') i++;
    else if (!a.startsWith('-')) return a in ABOUT ? (a as CommandName) : undefined;
  }
  return undefined;
}

/**
 * The command that runs is loaded whole; the others are only listed (name and one line), so that
 * `anwc stem` never loads the crawler, nor `anwc --help` any command but the list.
 */
async function commandModules(args: string[]): Promise<CommandModule<any, any>[]> {
  const named = commandNamed(args);
  return Promise.all((Object.keys(ABOUT) as CommandName[]).map(async (name) =>
    name === named ? COMMANDS[name]() : { ...ABOUT[name], handler: () => undefined }));
}

export async function main(args: string[]): Promise<void> {
  quietOnBrokenPipe(process.stdout, () => orphaned);
  stopWithParent();
  const cli = yargs(args)
    .scriptName('anwc')
    .usage('$0 <command> [options]\n\nHarvest narrative text from the web for an Automatic Narrative Engine.')
    .command(await commandModules(args))
    .option('config', { type: 'string', describe: OPTIONS.config.describe, global: true })
    .middleware((argv) => {
      const file = loadConfigFile(argv.config as string | undefined);
      useConfigValues(file?.values ?? new Map(), file?.path);
      fillFromFile(argv);
      checkOptions(argv, args);
    }, true)
    .demandCommand(1, 'Name a command; anwc --help lists them')
    .strict()
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .epilogue(
      'Options may also come from anwc.config.json in the working directory (or --config FILE): flag > environment > file > default; anwc config show says which.\n' +
        'Exit codes: 0 done, 1 done but problems found, 2 bad input, 3 internal error, 4 the database went away, 5 a disk full or a database damaged, 130 interrupted.',
    )
    // English throughout: yargs would put its headings in the locale's tongue above our English.
    .locale('en')
    .wrap(Math.min(HELP_WIDTH, process.stdout.columns || HELP_WIDTH))
    .fail((msg, err) => {
      const help = helpOf(args);
      process.exitCode = err
        ? reportError(err)
        : reportError(
          unknownOption(msg, args, help) ?? notAChoice(msg, help) ?? missingPositional(msg, args, help) ??
            new UserError(msg.replace(/\s*\n\s*/g, ' '), msg.includes('--help') ? {} : { fix: `see ${help}` }),
        );
      if (!err) process.exitCode = EXIT.USAGE;
      // yargs would print its full help here; one line is kinder in a log.
      throw new CliExit();
    });
  try {
    await cli.parseAsync();
  } catch (err) {
    if (!(err instanceof CliExit)) process.exitCode = reportError(err);
  }
}

class CliExit extends Error {}

/** `anwc map --help` for the command the arguments name, `anwc --help` when they name none. */
function helpOf(args: string[]): string {
  const command = commandNamed(args);
  return command ? `anwc ${command} --help` : 'anwc --help';
}

/**
 * yargs' "Unknown arguments: max-page, maxPage" as one line that names the flag as typed and the
 * nearest flags anwc has (`--max-page` → did you mean --max-pages?); a word typed where the
 * command goes (`anwc harves`) is an unknown command, with the nearest commands.
 */
function unknownOption(msg: string, args: readonly string[], help: string): UserError | undefined {
  const m = /^Unknown arguments?: (.+)$/.exec(msg.trim());
  if (!m) return undefined;
  // yargs lists a dashed name and its camelCase twin; the dashed one is what was typed.
  const names = m[1]!.split(', ').filter((n, _i, all) => !/[A-Z]/.test(n) || !all.includes(n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
  const first = args.find((a) => !a.startsWith('-'));
  if (first !== undefined && names.includes(first) && !(first in ABOUT)) {
    const near = nearest(first, Object.keys(ABOUT));
    return new UserError(`unknown command ${first}`, { fix: near.length > 0 ? `did you mean ${near.join(', ')}? anwc --help lists the commands` : 'anwc --help lists the commands' });
  }
  const flag = (n: string) => (n.length === 1 ? `-${n}` : `--${n}`);
  // A word typed as itself, not as a flag, is an argument the command does not take.
  const words = names.filter((n) => args.includes(n) && !args.includes(flag(n)));
  if (words.length > 0) {
    return new UserError(`unexpected argument${words.length > 1 ? 's' : ''} ${words.join(' ')}`, { fix: `${help} shows what the command takes` });
  }
  const hints = names.flatMap((n) => {
    // A flag of another command is known, just not here: a look-alike of itself is no hint.
    if (n in OPTIONS) return [`${flag(n)} is not an option of this command`];
    const near = nearest(n, Object.keys(OPTIONS));
    return near.length > 0 ? [`${names.length > 1 ? `${flag(n)}: ` : ''}did you mean ${near.map(flag).join(', ')}?`] : [];
  });
  return new UserError(`unknown option${names.length > 1 ? 's' : ''} ${names.map(flag).join(', ')}`, {
    fix: [...hints, `${help} lists the options`].map((h, i, all) => (i === all.length - 1 || h.endsWith('?') ? h : `${h};`)).join(' '),
  });
}

/**
 * yargs' "Not enough non-option arguments: got 0, need at least 1" as what the command needs: `anwc map needs <urls..>`.
 * yargs counts the positionals before it looks for unknown flags, so a flag anwc does not know
 * that took the argument as its value (`anwc import --bogus story.ane`) is named too.
 */
function missingPositional(msg: string, args: string[], help: string): UserError | undefined {
  const command = commandNamed(args);
  if (!command || !/^Not enough non-option arguments/.test(msg)) return undefined;
  const wanted = ABOUT[command].command.split(' ').slice(1).filter((w) => w.startsWith('<')).join(' ');
  const took = args.flatMap((a, i) => {
    const name = /^--([a-zA-Z][-a-zA-Z0-9]*)$/.exec(a)?.[1];
    const next = args[i + 1];
    return name !== undefined && !(name in OPTIONS) && next !== undefined && !next.startsWith('-') ? [`${a} took ${next} as its value`] : [];
  });
  return new UserError(`${command} needs ${wanted}`, { fix: [...took, `see ${help}`].join('; ') });
}

/**
 * yargs' "Invalid values:\n  Argument: progress, Given: "off", Choices: "auto", "bar"" as one
 * line that names the flag as typed and the values it takes.
 */
function notAChoice(msg: string, help: string): UserError | undefined {
  const m = /^Invalid values:\s*Argument: ([^,]+), Given: (.+?), Choices: (.+)$/s.exec(msg.trim());
  if (!m) return undefined;
  const choices = m[3]!.split(/,\s*/).map((c) => c.replace(/^"|"$/g, ''));
  return new UserError(`--${m[1]} takes one of ${choices.join(', ')}`, { value: m[2]!.replace(/^"|"$/g, ''), fix: `see ${help}` });
}

applyNodeFlags();
await main(process.argv.slice(2));
