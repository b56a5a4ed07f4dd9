import { foldSpace, splitMeta } from './text.js';
import type { Attribute, MarkupDocument, Node, Section, SectionItem, UnknownElement } from './types.js';

export interface NodeInit {
  meta: readonly string[];
  sentences: readonly string[];
  attributes?: readonly Attribute[];
}

/**
 * A node built in code (the store's exporter), folded the way the parser folds, so that it
 * serializes and reads back unchanged.
 */
export function createNode(init: NodeInit): Node {
  // A comma inside a word would split it on reading, so split it now.
  const meta = splitMeta(init.meta.join(','));
  const sentences = init.sentences.map(foldSpace);
  return {
    kind: 'node',
    meta,
    sentences,
    attributes: [...(init.attributes ?? [])],
    content: sentences.map((text) => ({ kind: 'sentence', text })),
  };
}

export function createSection(items: readonly SectionItem[], attributes: readonly Attribute[] = []): Section {
  return { kind: 'section', attributes: [...attributes], items: [...items] };
}

/** Every node of the document in reading order, top-level ones and those inside sections. */
export function documentNodes(doc: MarkupDocument): Node[] {
  const out: Node[] = [];
  for (const item of doc.items) {
    if (item.kind === 'node') out.push(item);
    else if (item.kind === 'section') {
      for (const inner of item.items) if (inner.kind === 'node') out.push(inner);
    }
  }
  return out;
}

/**
 * The value of an attribute: its text, true for a bare flag, undefined when absent. Sections are
 * named by `\id` this way: `attributeValue(section, 'id')`.
 */
export function attributeValue(el: Section | Node | UnknownElement, name: string): string | true | undefined {
  const a = el.attributes.find((x) => x.name === name);
  if (!a) return undefined;
  return a.value ?? true;
}
