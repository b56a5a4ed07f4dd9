import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { stemLines } from '../stem-lines.js';
import { handler } from '../run.js';

export const stemCommand: CommandModule = {
  ...ABOUT.stem,
  builder: (y) =>
    y
      .positional('words', { type: 'string', array: true, describe: 'Words to stem' })
      .example('echo running | anwc stem', 'prints "run"')
      .example('echo "the lighthouses running" | anwc stem', 'prints "the lighthous run": each word of a line, on its line')
      .example('anwc stem caresses ponies', 'prints "caress" and "poni"'),
  handler: handler(async (argv: { words?: string[] }) => {
    await stemLines(argv.words ?? [], process.stdin, process.stdout);
  }),
};
