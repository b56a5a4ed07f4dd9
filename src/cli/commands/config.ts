import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { configSource, OPTIONS, resolved, withOptions, type OptionName, type OptionSpec } from '../options.js';
import { handler } from '../run.js';
import { redact } from '../../store/url.js';

const NAMES = (Object.keys(OPTIONS) as OptionName[]).filter((n) => n !== 'config');

/**
 * `anwc config show`: every option with the value a command would use and where it came from
 * (flag, environment, default), so "not given" and "given the default" can be told apart.
 */
export const configCommand: CommandModule = {
  ...ABOUT.config,
  builder: (y) =>
    withOptions(y.positional('action', { choices: ['show'], describe: 'show: print the options' }), ...NAMES)
      .example('anwc config show', 'the defaults, and what ANWC_DB and the other variables set')
      .example('ANWC_DB=mysql://root@127.0.0.1/anwc anwc config show --delay 2', 'which value wins'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const rows = NAMES.map((name) => {
      const spec: OptionSpec = OPTIONS[name];
      const r = resolved(argv, name);
      // An address may carry a password; show the rest.
      const raw = spec.secret && r.value !== undefined ? redact(String(r.value)) : r.value;
      const source = r.source === 'env' ? `env ${spec.env}` : r.source === 'file' ? `file ${configSource(name)}` : r.source;
      return { name, raw, value: raw === undefined ? '' : JSON.stringify(raw), source };
    });
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(Object.fromEntries(rows.map((r) => [r.name, { value: r.raw ?? null, source: r.source }])))}\n`);
      return;
    }
    const w = Math.max(...rows.map((r) => r.name.length)) + 2;
    const v = Math.min(48, Math.max(...rows.map((r) => r.value.length)));
    process.stdout.write(rows.map((r) => `--${r.name.padEnd(w)}${r.value.padEnd(v)}  (${r.source})`).join('\n') + '\n');
  }),
};
