import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { getProportion, parseProportion, PROPORTION_KEY, setProportion } from '../../feed/mix.js';
import { openStore } from '../../store/open.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';

interface MixArgs {
  proportion?: string;
  db?: string;
  json?: boolean;
}

export const mixCommand: CommandModule = {
  ...ABOUT.mix,
  builder: (y) =>
    withOptions(y.positional('proportion', { type: 'string', describe: 'New value, 0 (author only) to 1 (crawler only)' }), 'db', 'json')
      .example('anwc mix', 'show the value every process uses')
      .example('anwc mix 0.3', 'three picks in ten from crawler nodes'),
  handler: handler(async (argv: MixArgs) => {
    // Checked before the database is opened: a typo should not need a reachable server.
    const value = argv.proportion === undefined ? undefined : parseProportion(String(argv.proportion));
    // Showing the value only reads: a database that is not there is a typo, not one to make.
    const store = await openStore(String(resolved(argv as Record<string, unknown>, 'db').value), { mustExist: value === undefined });
    try {
      const before = await getProportion(store);
      if (value !== undefined) await setProportion(store, value);
      const now = value ?? before.value;
      if (argv.json) {
        process.stdout.write(`${JSON.stringify({ [PROPORTION_KEY]: now, source: value === undefined ? before.source : 'setting', previous: value === undefined ? undefined : before.value })}\n`);
      } else if (value === undefined) {
        process.stdout.write(`${PROPORTION_KEY} = ${now}${before.source === 'default' ? ' (default; set it with anwc mix VALUE)' : ''}\n`);
      } else {
        process.stdout.write(`${PROPORTION_KEY} = ${now} (was ${before.value}${before.source === 'default' ? ', the default' : ''})\n`);
      }
    } finally {
      await store.close();
    }
  }),
};
