import { createNode, createSection, serializeMarkup, type MarkupDocument } from '../markup/index.js';
import type { StoredNode } from '../store/store.js';
import { splitSentences } from '../text/sentences.js';

/*
 * The three export formats as pure functions of stored nodes. ANE markup reads back into the
 * same nodes (text, sentences, meta words); JSONL and CSV are for other tools.
 */

/**
 * An author's sentences are the author's; a crawler node is a paragraph (the thesis keeps one
 * "sentence" per node), cut here into `{\sen}` groups by Intl.Segmenter's sentence rules.
 */
export function exportSentences(node: StoredNode): string[] {
  if (node.origin === 'author' && node.sentences.length > 0) return node.sentences;
  const split = splitSentences(node.text);
  return split.length > 0 ? split : [node.text];
}

const metaKey = (n: StoredNode) => n.metaWords.map((m) => m.stem).sort().join('\u0000');

/** One section per meta set, in order of each set's first node, named after its words. */
export function toMarkupDocument(nodes: StoredNode[]): MarkupDocument {
  const groups = new Map<string, StoredNode[]>();
  for (const n of nodes) {
    const key = metaKey(n);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  const used = new Set<string>();
  const items = [...groups.values()].map((group) => {
    const words = group[0]!.metaWords.map((m) => m.word);
    const section = createSection(
      group.map((n) => createNode({ meta: n.metaWords.map((m) => m.word), sentences: exportSentences(n) })),
      [{ name: 'id', value: sectionId(words, used) }],
    );
    return section;
  });
  return { kind: 'document', items };
}

/** A readable, unique `\id`: the meta words joined by '-', numbered on a clash. */
function sectionId(words: string[], used: Set<string>): string {
  const base = words.length > 0 ? words.map((w) => w.toLowerCase().replace(/\s+/g, '_')).join('-') : 'no-meta';
  let id = base;
  for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
  used.add(id);
  return id;
}

export function toAne(nodes: StoredNode[]): string {
  return serializeMarkup(toMarkupDocument(nodes));
}

export function toJsonLine(n: StoredNode): string {
  return `${JSON.stringify({
    id: n.id,
    origin: n.origin,
    text: n.text,
    sentences: exportSentences(n),
    meta: n.metaWords.map((m) => m.word),
    stems: n.metaWords.map((m) => m.stem),
    sourceUrl: n.sourceUrl,
    relevance: n.relevance,
    created: new Date(n.createdAt).toISOString(),
  })}\n`;
}

export const CSV_HEADER = ['id', 'origin', 'meta', 'text', 'source_url', 'relevance', 'created'];

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end CRLF.
 * A harvested cell that begins with = + - @, a tab or a carriage return would be run as a formula
 * by a spreadsheet (OWASP "CSV injection"): it gets a leading apostrophe, which spreadsheets show
 * as text and do not evaluate.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export function toCsvLine(n: StoredNode): string {
  return csvLine([
    String(n.id), n.origin, n.metaWords.map((m) => m.word).join(', '), n.text, n.sourceUrl ?? '',
    n.relevance === null ? '' : String(n.relevance), new Date(n.createdAt).toISOString(),
  ]);
}
