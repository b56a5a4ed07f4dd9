import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { analyzeMarkup, attributeValue, decodeMarkup, type MarkupDocument, type Node, type Section } from '../markup/index.js';
import { sha256 } from '../store/hash.js';
import { META_WORD_MAX, type MarkupFileInput, type MarkupNodeInput, type MarkupSectionInput, type MetaWord, type Store } from '../store/store.js';
import { stem } from '../text/stem.js';
import { linkStoredNodes, rebuildProfiles } from './profiles.js';

/**
 * `anwc import`: an author's ANE markup files become author nodes, their sentences and meta
 * words (thesis 5.1: the database that spares the engine reading the file at every start).
 * A file is known by its absolute path; its content hash makes a re-import of an unchanged file
 * a no-op, and an edited file replaces its previous nodes in one transaction. A file with a
 * markup error stores nothing, and the others go on.
 */
export type FileStatus = 'imported' | 'updated' | 'unchanged' | 'error';

export interface FileReport {
  file: string;
  status: FileStatus;
  nodes: number;
  newNodes: number;
  removedNodes: number;
  /** Nodes without a `{\sen}`: nothing for the engine to show, so not stored. */
  skippedNodes: number;
  /** Nodes whose text is a crawler node already (an export of the harvest imported back): not stored again. */
  crawlerCopies: number;
  /** What kept the file out: every markup error found in one reading, in file order. */
  errors: UserError[];
}

export interface ImportReport {
  files: FileReport[];
  /** Meta words of the imported files that no search has used yet: the seeds still to plant. */
  unsearched: MetaWord[];
  /** Stored crawler nodes linked to meta words by the new profiles (linkStoredNodes). */
  relinked: { nodes: number; links: number };
}

export interface ImportOptions {
  at?: number;
  /** A known file that now holds no node deletes its stored nodes only when this is set. */
  replace?: boolean;
  /** How many stored crawler nodes have been read for new meta links so far (a large store takes a while). */
  onRelink?: (read: number) => void;
}

/** Setting: the stored crawler nodes still await linking to the profiles an import changed. */
export const RELINK_PENDING = 'relink_pending';

export async function importFiles(store: Store, files: string[], opts: ImportOptions = {}): Promise<ImportReport> {
  const reports: FileReport[] = [];
  const touched = new Set<string>();
  for (const file of files) {
    const report = await importFile(store, file, opts.at ?? Date.now(), opts.replace ?? false);
    reports.push(report.report);
    for (const s of report.stems) touched.add(s);
  }
  // What the author wrote under each meta word is what its topic profile is learned from; the
  // crawler nodes already stored are then linked to the words they now speak of. The mark is set
  // first and cleared last, so that linking cut short (Ctrl-C, a full disk) is done by the next
  // import even when its files are unchanged.
  if (reports.some((r) => r.status === 'imported' || r.status === 'updated')) await store.setSetting(RELINK_PENDING, '1');
  let relinked = { nodes: 0, links: 0 };
  if ((await store.getSetting(RELINK_PENDING)) === '1') {
    relinked = await linkStoredNodes(store, await rebuildProfiles(store, opts.at ?? Date.now()), opts.onRelink);
    await store.setSetting(RELINK_PENDING, '');
  }
  const unsearched = (await store.listMetaWords({ neverSearched: true })).filter((m) => touched.has(m.stem));
  return { files: reports, unsearched: unsearched.map(({ id, word, stem: s }) => ({ id, word, stem: s })), relinked };
}

async function importFile(store: Store, file: string, at: number, replace: boolean): Promise<{ report: FileReport; stems: string[] }> {
  const base: FileReport = { file, status: 'error', nodes: 0, newNodes: 0, removedNodes: 0, skippedNodes: 0, crawlerCopies: 0, errors: [] };
  const path = resolve(file);
  let text: string;
  try {
    text = decodeMarkup(await readFile(path), file);
  } catch (err) {
    if (err instanceof UserError) return { report: { ...base, errors: [err] }, stems: [] };
    const code = (err as { code?: string }).code ?? 'error';
    return { report: { ...base, errors: [new UserError(`cannot read the file (${code})`, { file, fix: 'check the path' })] }, stems: [] };
  }
  const contentHash = sha256(text);
  const known = await store.markupFile(path);
  let input: MarkupFileInput;
  let skippedNodes: number;
  // Every error, as `anwc markup check` finds them: the first one read is often only where an
  // earlier mistake (a group left open) was noticed.
  const { document, errors } = analyzeMarkup(text, { file });
  if (errors.length > 0) return { report: { ...base, errors }, stems: [] };
  try {
    ({ input, skippedNodes } = toFileInput(document, path, contentHash, file));
  } catch (err) {
    if (err instanceof UserError) return { report: { ...base, errors: [err] }, stems: [] };
    throw err;
  }
  const stems = input.sections.flatMap((s) => s.nodes.flatMap((n) => n.metaWords.map((m) => m.stem)));
  const nodeCount = input.sections.reduce((sum, s) => sum + s.nodes.length, 0);
  if (known?.contentHash === contentHash) {
    return { report: { ...base, status: 'unchanged', nodes: nodeCount, skippedNodes }, stems };
  }
  // An emptied file (saved blank by accident, or cut short) would silently delete the author's nodes.
  if (known && nodeCount === 0 && !replace) {
    const error = new UserError('the file now holds no node; importing it would delete its stored author nodes', {
      file, fix: 'restore the file, or rerun with --replace to delete its nodes on purpose',
    });
    return { report: { ...base, errors: [error] }, stems: [] };
  }
  const r = await store.replaceMarkupFile(input, at);
  return {
    report: { ...base, status: known ? 'updated' : 'imported', nodes: r.nodes, newNodes: r.newNodes, removedNodes: r.removedNodes, skippedNodes, crawlerCopies: r.crawlerCopies },
    stems,
  };
}

/** The store's view of a parsed file: sections in order, top-level nodes in unnamed sections. */
export function toFileInput(doc: MarkupDocument, path: string, contentHash: string, file = path): { input: MarkupFileInput; skippedNodes: number } {
  const sections: MarkupSectionInput[] = [];
  let loose: MarkupSectionInput | undefined;
  let skippedNodes = 0;
  const take = (node: Node, into: MarkupSectionInput) => {
    const n = toNodeInput(node, file);
    if (n) into.nodes.push(n);
    else skippedNodes++;
  };
  for (const item of doc.items) {
    if (item.kind === 'section') {
      loose = undefined;
      const section = toSection(item);
      for (const inner of item.items) if (inner.kind === 'node') take(inner, section);
      sections.push(section);
    } else if (item.kind === 'node') {
      if (!loose) sections.push((loose = { name: null, attributes: {}, nodes: [] }));
      take(item, loose);
    }
  }
  return { input: { path, contentHash, sections }, skippedNodes };
}

function toSection(section: Section): MarkupSectionInput {
  const id = attributeValue(section, 'id');
  const attributes: Record<string, string | null> = {};
  for (const a of section.attributes) if (a.name !== 'id') attributes[a.name] = a.value;
  return { name: typeof id === 'string' ? id : null, attributes, nodes: [] };
}

/** A node's text is its sentences joined by one space, as the parser folded them. */
function toNodeInput(node: Node, file: string): MarkupNodeInput | undefined {
  if (node.sentences.length === 0) return undefined;
  for (const word of node.meta) {
    if ([...word].length > META_WORD_MAX) {
      throw new UserError(`meta word longer than ${META_WORD_MAX} characters`, {
        file, line: node.pos?.line, col: node.pos?.col, value: `${word.slice(0, 40)}…`, fix: 'meta words are separated by commas',
      });
    }
  }
  return {
    text: node.sentences.join(' '),
    sentences: node.sentences,
    metaWords: node.meta.map((word) => ({ word, stem: stem(word) })),
  };
}
