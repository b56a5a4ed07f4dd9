import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { readFile } from 'node:fs/promises';
import { printable, UserError } from '../../errors.js';
import { elementsCut, encodingForLabel, extractBlocks, extractLinks, parseBytes, type Block, type Dom } from '../../html/index.js';
import { ELEMENTS_CAP } from '../../html/limits.js';
import { DEFAULT_HEURISTICS, evaluateBlock, type BlockVerdict } from '../../text/index.js';
import { extract, type ExtractorName } from '../../extract/index.js';
import { handler } from '../run.js';
import { withOptions } from '../options.js';

interface ExtractArgs {
  file: string;
  json?: boolean;
  blocks?: string;
  'base-url'?: string;
  charset?: string;
  'max-link-density'?: number;
  extractor?: ExtractorName;
}

/** One block and what became of it: a structural rejection, or the text rules' verdict. */
interface Judged {
  block: Block;
  accepted: boolean;
  reasons: { rule: string; message: string }[];
  stats?: BlockVerdict['stats'];
}

const PREVIEW = 60;

export const extractCommand: CommandModule = {
  ...ABOUT.extract,
  builder: (y) =>
    withOptions(
      y.positional('file', { type: 'string', describe: 'HTML file to read, or - for standard input' }),
      'json',
      'blocks',
      'base-url',
      'charset',
      'max-link-density',
      'extractor',
    )
      .example('anwc extract chapter.html', 'ACCEPT/REJECT per paragraph and table, with the rule that rejected it')
      .example('anwc extract --blocks div,li --json page.html', 'also read divs and list items; JSON lines')
      .example('anwc extract --extractor narrative story.html', 'the paragraphs the narrative extractor keeps, and what it dropped by rule'),
  handler: handler(async (argv: ExtractArgs) => {
    // yargs-parser reads a lone "-" as an option without a name and hands over ''.
    const file = argv.file === '' || argv.file === '-' ? '-' : argv.file;
    const bytes = await readInput(file);
    const dom = parseBytes(bytes, contentType(argv.charset));
    if (elementsCut(dom)) {
      process.stderr.write(`anwc: ${file === '-' ? 'standard input' : printable(file)}: read up to its first ${ELEMENTS_CAP}, as a page's tree holds no more; what follows is not judged\n`);
    }
    const out = argv.extractor === 'narrative' ? narrativeLines(dom, argv) : thesisLines(dom, argv);
    if (argv['base-url'] !== undefined) out.push(...linkLines(dom, argv['base-url'], argv.json === true));
    process.stdout.write(out.join('\n') + '\n');
  }),
};

async function readInput(file: string): Promise<Uint8Array> {
  try {
    return file === '-' ? await readStdin() : await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UserError(`cannot read: ${why}`, { file });
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The Content-Type a --charset stands for: as if the server had sent it, a BOM still outranks it, a <meta> does not. */
function contentType(charset: string | undefined): string | undefined {
  if (charset === undefined) return undefined;
  if (!encodingForLabel(charset)) {
    throw new UserError('unknown --charset', { value: charset, fix: 'give an encoding label such as utf-8, windows-1252 or shift_jis' });
  }
  return `text/html; charset=${charset}`;
}

const STRUCTURE: Record<string, (b: Block) => string> = {
  'nested-table': () => 'a table inside a table is layout, not text',
  'link-density': (b) => `${Math.round(b.linkDensity * 100)}% of its characters are link text`,
};

function judge(block: Block): Judged {
  if (block.rejected) {
    const message = STRUCTURE[block.rejected]?.(block) ?? block.rejected;
    return { block, accepted: false, reasons: [{ rule: block.rejected, message }] };
  }
  const v = evaluateBlock(block.text);
  return { block, accepted: v.accepted, reasons: v.reasons, stats: v.stats };
}

function jsonOf(j: Judged) {
  const { index, tag, path, linkDensity, text } = j.block;
  return { kind: 'block', index, tag, path, accepted: j.accepted, reasons: j.reasons, stats: j.stats ?? null, linkDensity, text };
}

function lineOf(j: Judged): string {
  const { tag, index, text } = j.block;
  const quoted = JSON.stringify(text.length > PREVIEW ? `${text.slice(0, PREVIEW).trimEnd()}…` : text);
  if (j.accepted) return `ACCEPT ${tag}#${index}  ${quoted}`;
  const why = j.reasons.map((r) => `${r.rule}: ${r.message}`).join('; ');
  return `REJECT ${tag}#${index}  ${why}  ${quoted}`;
}

function summaryOf(judged: Judged[]): string {
  const accepted = judged.filter((j) => j.accepted).length;
  const byRule = new Map<string, number>();
  for (const j of judged) for (const r of j.reasons) byRule.set(r.rule, (byRule.get(r.rule) ?? 0) + 1);
  const rules = [...byRule].map(([rule, n]) => `${rule} ${n}`).join(', ');
  const rejected = judged.length - accepted;
  return `${judged.length} blocks: ${accepted} accepted, ${rejected} rejected${rules ? ` (${rules})` : ''}`;
}

/** Each block of the thesis extractor with its verdict, and a summary. */
function thesisLines(dom: Dom, argv: ExtractArgs): string[] {
  const blocks = extractBlocks(dom, {
    url: argv['base-url'],
    blocks: argv.blocks?.split(','),
    maxLinkDensity: argv['max-link-density'],
  });
  const judged = blocks.map(judge);
  return argv.json ? judged.map((j) => JSON.stringify(jsonOf(j))) : [...judged.map(lineOf), summaryOf(judged)];
}

/** The narrative extractor judges blocks in their context: what it keeps, in order, and its drops counted by rule. */
function narrativeLines(dom: Dom, argv: ExtractArgs): string[] {
  for (const flag of ['blocks', 'max-link-density'] as const) {
    if (argv[flag] !== undefined) throw new UserError(`--${flag} applies to the thesis extractor`, { value: String(argv[flag]), fix: `leave out --${flag}: narrative reads its own block kinds and link density` });
  }
  const r = extract(dom, 'narrative', { heuristics: DEFAULT_HEURISTICS });
  if (argv.json) {
    return [...r.kept.map((k) => JSON.stringify({ kind: 'kept', text: k.text })), JSON.stringify({ kind: 'summary', blocks: r.blocks, kept: r.kept.length, rejected: r.rejected })];
  }
  const rules = Object.entries(r.rejected).map(([rule, n]) => `${rule} ${n}`).join(', ');
  return [
    ...r.kept.map((k) => `KEEP  ${JSON.stringify(k.text.length > PREVIEW ? `${k.text.slice(0, PREVIEW).trimEnd()}…` : k.text)}`),
    `${r.blocks} blocks of the main content: ${r.kept.length} kept${rules ? `; dropped: ${rules}` : ''}`,
  ];
}

function linkLines(dom: Dom, url: string, json: boolean): string[] {
  const page = extractLinks(dom, { url });
  if (json) {
    return [
      JSON.stringify({ kind: 'page', base: page.base, robots: page.robots, refresh: page.refresh ?? null }),
      ...page.links.map((l) => JSON.stringify({ kind: 'link', ...l })),
    ];
  }
  const robots = [page.robots.noindex && 'noindex', page.robots.nofollow && 'nofollow'].filter(Boolean).join(',') || 'index,follow';
  const lines = [`BASE ${page.base}  robots: ${robots}${page.refresh ? `  refresh: ${page.refresh}` : ''}`];
  for (const l of page.links) lines.push(`LINK ${l.url}${l.nofollow ? ' nofollow' : ''}  ${JSON.stringify(l.anchorText)}`);
  lines.push(`${page.links.length} links, ${page.links.filter((l) => l.nofollow).length} nofollow`);
  return lines;
}
