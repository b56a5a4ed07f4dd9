/**
 * The document model of ANE markup (thesis Figures 3 and 8). It holds what the narrative engine
 * reads (sections, nodes, meta words, sentences) and also what it does not know (unknown control
 * words and groups), so that a file survives parse → serialize without losing an author's work.
 *
 * Positions are optional because documents are also built in code (the store's exporter); every
 * value the parser produces has one.
 */

/** 1-based line and column of the first character; columns count Unicode code points. */
export interface Position {
  line: number;
  col: number;
}

/** `\name="value"` (value is the unescaped text) or a bare flag `\name` (value is null). */
export interface Attribute {
  name: string;
  value: string | null;
  pos?: Position;
}

/** `{\sen …}`: its text with whitespace runs folded to one space and trimmed. */
export interface Sentence {
  kind: 'sentence';
  text: string;
  pos?: Position;
}

/** Plain text standing in a node or an unknown group, folded like a sentence; never empty. */
export interface TextRun {
  kind: 'text';
  text: string;
  pos?: Position;
}

/**
 * A group whose name anwc does not know, such as `{\note …}`. Everything inside is kept as
 * generic content, `\sen` and `\node` included, because its meaning belongs to someone else.
 */
export interface UnknownElement {
  kind: 'element';
  name: string;
  attributes: Attribute[];
  children: (TextRun | UnknownElement)[];
  pos?: Position;
}

export type NodeItem = Sentence | TextRun | UnknownElement;

/**
 * `{\node \meta="a, b" {\sen …} …}`. `content` is the node in reading order and is what the
 * serializer writes; `sentences` is the text of its Sentence items, the part the engine reads.
 * Build nodes with createNode so the two agree.
 */
export interface Node {
  kind: 'node';
  /** Words of `\meta`, split at commas, trimmed, inner whitespace folded, empty ones dropped. */
  meta: string[];
  sentences: string[];
  /** Every attribute but `\meta`, in source order. */
  attributes: Attribute[];
  content: NodeItem[];
  pos?: Position;
}

export type SectionItem = Node | UnknownElement;

/** `{\section \display \id="begin" {\node …} …}`; attributes such as `\id` stay generic. */
export interface Section {
  kind: 'section';
  attributes: Attribute[];
  items: SectionItem[];
  pos?: Position;
}

export type DocumentItem = Section | Node | UnknownElement;

export interface MarkupDocument {
  kind: 'document';
  items: DocumentItem[];
}
