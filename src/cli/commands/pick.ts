import seedrandom from 'seedrandom';
import { ABOUT } from './about.js';
import type { CommandModule } from 'yargs';
import { UserError } from '../../errors.js';
import { getProportion } from '../../feed/mix.js';
import { pickNode } from '../../feed/pick.js';
import { openStore } from '../../store/open.js';
import { stem } from '../../text/stem.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';

interface PickArgs {
  word: string;
  seed?: number;
  db?: string;
  json?: boolean;
  withGone?: boolean;
}

export const pickCommand: CommandModule = {
  ...ABOUT.pick,
  builder: (y) =>
    withOptions(y.positional('word', { type: 'string', describe: 'The word a reader clicked' }), 'seed', 'db', 'json')
      .option('with-gone', { type: 'boolean', default: false, describe: 'Draw also crawler nodes whose source page is gone (anwc maintain --nodes marks them)' })
      .example('anwc pick cookies --seed 7', 'a node linked to the stem "cooki", the same one every time')
      .epilogue('Exit codes: 0 a node was picked, 1 no node is linked to the word\'s stem, 2 bad input.'),
  handler: handler(async (argv: PickArgs) => {
    const word = String(argv.word ?? '').trim();
    if (word === '') throw new UserError('pick needs a word', { value: String(argv.word ?? ''), fix: 'e.g. anwc pick begin' });
    const store = await openStore(String(resolved(argv as unknown as Record<string, unknown>, 'db').value), { mustExist: true });
    try {
      const { value: proportion } = await getProportion(store);
      const rng = argv.seed === undefined ? seedrandom() : seedrandom(String(argv.seed));
      const node = await pickNode(store, word, { proportion, rng, withGone: argv.withGone === true });
      if (!node) {
        // A script that asked for JSON reads JSON, the miss included.
        if (argv.json) process.stdout.write(`${JSON.stringify({ word, stem: stem(word), node: null, proportion })}\n`);
        process.stderr.write(`anwc: no node is linked to "${word}" (stem "${stem(word)}"); anwc keywords lists the meta words\n`);
        return EXIT.PROBLEMS;
      }
      if (argv.json) {
        const { metaWords, ...rest } = node;
        process.stdout.write(`${JSON.stringify({ ...rest, meta: metaWords.map((m) => m.word), proportion })}\n`);
        return;
      }
      process.stdout.write(`${node.text}\n`);
      const where = node.origin === 'crawler' && node.sourceUrl ? ` from ${node.sourceUrl}` : '';
      const fell = node.fallback ? ` (no ${node.origin === 'author' ? 'crawler' : 'author'} node for this stem)` : '';
      const status = node.status === 'ok' ? '' : ` [source ${node.status}]`;
      process.stderr.write(`-- ${node.origin} node ${node.id}${where}${status}${fell}; meta: ${node.metaWords.map((m) => m.word).join(', ')}\n`);
    } finally {
      await store.close();
    }
  }),
};
