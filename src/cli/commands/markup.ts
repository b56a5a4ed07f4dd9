import type { Argv, CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { readFile } from 'node:fs/promises';
import { analyzeMarkup, decodeMarkup, documentNodes, serializeMarkup, type MarkupError } from '../../markup/index.js';
import { printable, UserError } from '../../errors.js';
import { EXIT } from '../exit.js';
import { withOptions } from '../options.js';
import { handler } from '../run.js';

type Read = { ok: true; text: string } | { ok: false; line: string };

/** One line for a file that cannot be read, or is not UTF-8: the file's name and the reason, no stack. */
async function readSource(file: string): Promise<Read> {
  try {
    return { ok: true, text: decodeMarkup(await readFile(file), file) };
  } catch (err) {
    if (err instanceof UserError) return { ok: false, line: `anwc: ${err.toLine()}` };
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file'
      : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
      : code === 'EISDIR' ? 'is a directory'
      : (err as Error).message;
    return { ok: false, line: printable(`anwc: ${file}: cannot read (${reason})`) };
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function errorJson(e: MarkupError): string {
  return JSON.stringify({ file: e.file, line: e.line, col: e.col, code: e.code, message: e.message, fix: e.fix });
}

const checkCommand: CommandModule = {
  command: 'check <files..>',
  describe: 'Check ANE markup files; print every error as file:line:col: message',
  builder: (y: Argv) =>
    withOptions(y.positional('files', { type: 'string', array: true, describe: 'Markup files' }), 'json')
      .example('anwc markup check ane-markup/sample.ane', 'prints "ane-markup/sample.ane: ok (…)"'),
  handler: handler(async (argv: { files: string[]; json?: boolean }) => {
    let bad = false;
    for (const file of argv.files) {
      const read = await readSource(file);
      if (!read.ok) {
        bad = true;
        process.stderr.write(argv.json ? `${JSON.stringify({ file, error: read.line })}\n` : `${read.line}\n`);
        continue;
      }
      const { document, errors } = analyzeMarkup(read.text, { file });
      if (errors.length > 0) {
        bad = true;
        const lines = errors.map((e) => (argv.json ? errorJson(e) : e.toLine()));
        process.stderr.write(`${lines.join('\n')}\n`);
        continue;
      }
      const sections = document.items.filter((i) => i.kind === 'section').length;
      const nodes = documentNodes(document).length;
      process.stdout.write(
        argv.json
          ? `${JSON.stringify({ file, ok: true, sections, nodes })}\n`
          : `${file}: ok (${plural(sections, 'section')}, ${plural(nodes, 'node')})\n`,
      );
    }
    return bad ? EXIT.USAGE : EXIT.OK;
  }),
};

const fmtCommand: CommandModule = {
  command: 'fmt <file>',
  describe: 'Print the canonical form of an ANE markup file (nothing is printed if it has errors)',
  builder: (y: Argv) => y.positional('file', { type: 'string', describe: 'Markup file' }),
  handler: handler(async (argv: { file: string }) => {
    const read = await readSource(argv.file);
    if (!read.ok) {
      process.stderr.write(`${read.line}\n`);
      return EXIT.USAGE;
    }
    const { document, errors } = analyzeMarkup(read.text, { file: argv.file });
    if (errors.length > 0) {
      // A recovered document would silently drop what was in error, so refuse instead.
      process.stderr.write(`${errors.map((e) => e.toLine()).join('\n')}\n`);
      return EXIT.USAGE;
    }
    process.stdout.write(serializeMarkup(document));
  }),
};

export const markupCommand: CommandModule = {
  ...ABOUT.markup,
  builder: (y: Argv) => y.command(checkCommand).command(fmtCommand).demandCommand(1, 'Name a markup command: check or fmt'),
  handler: () => {},
};
