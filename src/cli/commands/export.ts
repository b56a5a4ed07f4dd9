import { createWriteStream, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { ABOUT } from './about.js';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { exportNodes } from '../../feed/export.js';
import type { ExportFormat } from '../../feed/export-format.js';
import { openStore } from '../../store/open.js';
import type { Origin } from '../../store/store.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';
import { UserError } from '../../errors.js';
import { stem } from '../../text/stem.js';

interface ExportArgs {
  origin?: string;
  format?: string;
  meta?: string;
  out?: string;
  db?: string;
}

/** The reader went away (`anwc export | head`): not an error of the export. */
class OutputClosed extends Error {}

/**
 * A write that waits when the stream's buffer is full, so a large export stays small in memory,
 * and that fails with OutputClosed when the reader closed the pipe.
 */
function writer(stream: NodeJS.WritableStream): (chunk: string) => Promise<void> {
  let closed: Error | undefined;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    closed = e.code === 'EPIPE' ? new OutputClosed() : e;
    stream.emit('drain');
  });
  return (chunk) =>
    new Promise((done, fail) => {
      if (closed) return fail(closed);
      if (stream.write(chunk)) return done();
      stream.once('drain', () => (closed ? fail(closed) : done()));
    });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function closeFile(stream: WriteStream): Promise<void> {
  return new Promise((done, fail) => stream.end((err?: Error | null) => (err ? fail(err) : done())));
}

export const exportCommand: CommandModule = {
  ...ABOUT.export,
  builder: (y) =>
    withOptions(y, 'origin', 'format', 'meta', 'out', 'db')
      .describe('meta', 'Only nodes linked to this word (by its stem)')
      .example('anwc export --origin crawler > web.ane', 'the harvested nodes as markup, grouped by meta words')
      .example('anwc export --format csv --meta cookie --out cookie.csv', 'the nodes of one word as a spreadsheet'),
  handler: handler(async (argv: ExportArgs) => {
    const opt = (name: 'origin' | 'format' | 'db') => String(resolved(argv as Record<string, unknown>, name).value);
    if (argv.out !== undefined && isFolder(argv.out)) {
      throw new UserError('--out names a folder', { value: argv.out, fix: `give a file name, e.g. ${join(argv.out, `export.${opt('format')}`)}` });
    }
    const store = await openStore(opt('db'), { mustExist: true });
    if (argv.meta !== undefined && !(await store.metaWordByStem(stem(argv.meta)))) {
      await store.close();
      throw new UserError(`--meta ${argv.meta}: no meta word has the stem "${stem(argv.meta)}"`, { value: argv.meta, fix: 'anwc keywords lists the meta words of the database' });
    }
    const tmp = argv.out === undefined ? undefined : `${argv.out}.${process.pid}.tmp`;
    let file: WriteStream | undefined;
    try {
      if (tmp) {
        file = createWriteStream(tmp);
        await new Promise<void>((ok, fail) => file!.once('open', () => ok()).once('error', (e: NodeJS.ErrnoException) =>
          fail(new UserError(`cannot write ${argv.out} (${e.code ?? e.message})`, { fix: 'check that the folder exists and is writable' }))));
      }
      const count = await exportNodes(
        store,
        { origin: opt('origin') as Origin | 'all', format: opt('format') as ExportFormat, meta: argv.meta },
        writer(file ?? process.stdout),
      );
      if (file && tmp) {
        await closeFile(file);
        file = undefined;
        renameSync(tmp, argv.out!);
        process.stderr.write(`exported ${count} node(s) to ${argv.out}\n`);
      } else if (count === 0) {
        process.stderr.write(`anwc: no node to export (origin ${opt('origin')}${argv.meta === undefined ? '' : `, meta ${argv.meta}`})\n`);
      }
    } catch (err) {
      if (!(err instanceof OutputClosed)) throw err;
    } finally {
      if (file) file.destroy();
      if (tmp) rmSync(tmp, { force: true });
      await store.close();
    }
  }),
};
