import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { importFiles, type FileReport } from '../../feed/import.js';
import { openStore } from '../../store/open.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { handler, reportError } from '../run.js';
import { printable } from '../../errors.js';

interface ImportArgs {
  files: string[];
  db?: string;
  json?: boolean;
}

function describeFile(r: FileReport): string {
  const copies = r.crawlerCopies > 0 ? `, ${r.crawlerCopies} not imported: their text is stored as crawler nodes already (an export of the harvest?)` : '';
  const skipped = `${r.skippedNodes > 0 ? `, ${r.skippedNodes} without a sentence skipped` : ''}${copies}`;
  switch (r.status) {
    case 'imported':
      return `${r.file}: imported ${r.nodes} node(s), ${r.newNodes} new${skipped}`;
    case 'updated':
      return `${r.file}: updated, ${r.nodes} node(s), ${r.newNodes} new, ${r.removedNodes} removed${skipped}`;
    case 'unchanged':
      return `${r.file}: unchanged since the last import (${r.nodes} node(s))`;
    case 'error':
      return `${r.file}: not imported`;
  }
}

/** Crawler nodes between two lines of progress while an import links them anew (some 2 s of work). */
const RELINK_SAY_EVERY = 10_000;

export const importCommand: CommandModule = {
  ...ABOUT.import,
  builder: (y) =>
    withOptions(y.positional('files', { type: 'string', array: true, describe: 'ANE markup files' }), 'db', 'json', 'replace')
      .example('anwc import story.ane', 'store its nodes; run again after editing it')
      .epilogue('Exit codes: 0 all files imported, 2 a file could not be read or has a markup error (the others are still imported).'),
  handler: handler(async (argv: ImportArgs) => {
    const store = await openStore(String(resolved(argv as unknown as Record<string, unknown>, 'db').value));
    try {
      let said = 0;
      const onRelink = (read: number) => {
        if (read - said < RELINK_SAY_EVERY) return;
        said = read;
        process.stderr.write(`anwc: linking the stored crawler nodes to the meta words: ${read} read\n`);
      };
      const report = await importFiles(store, argv.files, { replace: Boolean((argv as unknown as Record<string, unknown>).replace), onRelink });
      let failed = false;
      for (const r of report.files) {
        for (const e of r.errors) reportError(e);
        failed ||= r.errors.length > 0;
        if (argv.json) {
          const { errors, ...rest } = r;
          process.stdout.write(`${JSON.stringify({ ...rest, ...(errors.length > 0 ? { errors: errors.map((e) => e.toLine()) } : {}) })}\n`);
        } else if (r.errors.length === 0) {
          process.stdout.write(`${describeFile(r)}\n`);
        }
      }
      const words = report.unsearched.map((m) => m.word);
      if (argv.json) process.stdout.write(`${JSON.stringify({ unsearched: words, relinked: report.relinked })}\n`);
      else {
        if (report.relinked.nodes > 0) process.stdout.write(`stored crawler nodes linked to meta words they speak of: ${report.relinked.nodes} (${report.relinked.links} links)\n`);
        if (words.length > 0) process.stdout.write(`new meta words to seed: ${printable(words.join(', '))}\n`);
      }
      return failed ? EXIT.USAGE : EXIT.OK;
    } finally {
      await store.close();
    }
  }),
};
