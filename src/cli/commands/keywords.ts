import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { openStore } from '../../store/open.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';
import { printable } from '../../errors.js';

interface KeywordsArgs {
  pending?: boolean;
  db?: string;
  json?: boolean;
}

export const keywordsCommand: CommandModule = {
  ...ABOUT.keywords,
  builder: (y) =>
    withOptions(y, 'pending', 'db', 'json')
      .example('anwc keywords --pending', 'the meta words no search has used yet'),
  handler: handler(async (argv: KeywordsArgs) => {
    const store = await openStore(String(resolved(argv as Record<string, unknown>, 'db').value), { mustExist: true });
    try {
      const words = await store.listMetaWords({ neverSearched: argv.pending ?? false });
      const when = (t: number | null) => (t === null ? null : new Date(t).toISOString());
      if (argv.json) {
        for (const m of words) {
          process.stdout.write(`${JSON.stringify({ word: m.word, stem: m.stem, nodes: m.nodes, lastSearched: when(m.lastSearchedAt) })}\n`);
        }
        return;
      }
      if (words.length === 0) {
        process.stdout.write(argv.pending ? 'every meta word has been searched\n' : 'no meta words yet; anwc import FILE stores some\n');
        return;
      }
      const rows = [['word', 'stem', 'nodes', 'last searched'], ...words.map((m) => [m.word, m.stem, String(m.nodes), when(m.lastSearchedAt) ?? 'never'])];
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
      for (const r of rows) {
        process.stdout.write(`${printable(r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  '))}\n`);
      }
    } finally {
      await store.close();
    }
  }),
};
