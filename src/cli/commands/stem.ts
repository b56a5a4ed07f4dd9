import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { createInterface } from 'node:readline';
import { stem } from '../../text/stem.js';
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
    const out: string[] = [];
    const flush = () => {
      if (out.length) process.stdout.write(out.join('\n') + '\n');
      out.length = 0;
    };
    // Each word of a line stemmed, the line kept: one word a line gives one stem a line.
    const stemLine = (line: string) => line.trim().split(/\s+/).filter(Boolean).map(stem).join(' ');
    if (argv.words && argv.words.length > 0) {
      for (const w of argv.words) out.push(stemLine(w));
      flush();
      return;
    }
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      out.push(stemLine(line));
      if (out.length >= 4096) flush();
    }
    flush();
  }),
};
