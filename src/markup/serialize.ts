import { escapeText, escapeValue } from './text.js';
import type { Attribute, MarkupDocument, Node, NodeItem, Section, UnknownElement } from './types.js';

const INDENT = '  ';

/**
 * The canonical text of a document, laid out like Figure 3: a group's head on its own line, one
 * sentence a line indented under its node, a blank line between nodes and between top-level
 * groups. `\meta` comes first in a node and attributes come before content, wherever they stood.
 * Reading the output back gives the same document, and serializing that gives the same text.
 */
export function serializeMarkup(doc: MarkupDocument): string {
  if (doc.items.length === 0) return '';
  return `${doc.items.map((item) => writeItem(item, 0)).join('\n\n')}\n`;
}

function writeItem(item: Section | Node | UnknownElement, depth: number): string {
  switch (item.kind) {
    case 'section':
      return writeSection(item, depth);
    case 'node':
      return writeNode(item, depth);
    case 'element':
      return INDENT.repeat(depth) + writeElement(item);
  }
}

function writeSection(section: Section, depth: number): string {
  const pad = INDENT.repeat(depth);
  const head = `${pad}{\\section${writeAttributes(section.attributes)}`;
  if (section.items.length === 0) return `${head}}`;
  const body = section.items.map((item) => writeItem(item, depth + 1)).join('\n\n');
  return `${head}\n${body}\n${pad}}`;
}

function writeNode(node: Node, depth: number): string {
  const pad = INDENT.repeat(depth);
  const meta = node.meta.length > 0 ? ` \\meta="${escapeValue(node.meta.join(', '))}"` : '';
  const head = `${pad}{\\node${meta}${writeAttributes(node.attributes)}`;
  if (node.content.length === 0) return `${head}}`;
  const inner = INDENT.repeat(depth + 1);
  const lines = node.content.map((item) => inner + writeNodeItem(item));
  return `${head}\n${lines.join('\n')}\n${pad}}`;
}

function writeNodeItem(item: NodeItem): string {
  switch (item.kind) {
    case 'sentence':
      return item.text === '' ? '{\\sen}' : `{\\sen ${escapeText(item.text)}}`;
    case 'text':
      return escapeText(item.text);
    case 'element':
      return writeElement(item);
  }
}

/** Unknown groups stay on one line: their layout carries no meaning anwc could keep. */
function writeElement(el: UnknownElement): string {
  const children = el.children
    .map((c) => ` ${c.kind === 'text' ? escapeText(c.text) : writeElement(c)}`)
    .join('');
  return `{\\${el.name}${writeAttributes(el.attributes)}${children}}`;
}

function writeAttributes(attributes: readonly Attribute[]): string {
  return attributes.map((a) => (a.value === null ? ` \\${a.name}` : ` \\${a.name}="${escapeValue(a.value)}"`)).join('');
}
