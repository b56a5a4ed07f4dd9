import { MarkupError, byPosition, type MarkupErrorCode } from './errors.js';
import { lex, type Token } from './lex.js';
import { foldSpace, isLayoutSpace, splitMeta } from './text.js';
import type {
  Attribute,
  MarkupDocument,
  Node,
  Position,
  Section,
  Sentence,
  TextRun,
  UnknownElement,
} from './types.js';

export interface ParseOptions {
  /** Named in every error, as the CLI prints it. */
  file?: string;
}

export interface Analysis {
  /** Everything that could be read; groups that were in error are left out. */
  document: MarkupDocument;
  /** In source order; empty when the text is well formed. */
  errors: MarkupError[];
}

/** Reads ANE markup and throws the first MarkupError, for callers that need a sound document. */
export function parseMarkup(text: string, options: ParseOptions = {}): MarkupDocument {
  const { document, errors } = analyzeMarkup(text, options);
  if (errors.length > 0) throw errors[0];
  return document;
}

/** Every error that can be found in one reading, for `anwc markup check`. */
export function checkMarkup(text: string, options: ParseOptions = {}): MarkupError[] {
  return analyzeMarkup(text, options).errors;
}

/** Reads ANE markup, recovering after each error so that later ones are found too. */
export function analyzeMarkup(text: string, options: ParseOptions = {}): Analysis {
  const parser = new Parser(options.file ?? '<input>');
  for (const token of lex(text, parser.report)) parser.take(token);
  parser.errors.sort(byPosition);
  return { document: parser.document, errors: parser.errors };
}

/** The words that name the format's own groups; anything else is an unknown element. */
type GroupWord = 'section' | 'node' | 'sen';
const GROUP_WORDS: ReadonlySet<string> = new Set<GroupWord>(['section', 'node', 'sen']);

type Frame =
  | { kind: 'document' }
  | { kind: 'section'; el: Section; open: Position }
  | { kind: 'node'; el: Node; open: Position; metaAt?: Position }
  | { kind: 'sentence'; el: Sentence; open: Position; raw: string[] }
  | { kind: 'element'; el: UnknownElement; open: Position };

/** Which known groups may open directly inside which frame. */
const ACCEPTS: Record<Frame['kind'], readonly GroupWord[]> = {
  document: ['section', 'node'],
  section: ['node'],
  node: ['sen'],
  sentence: [],
  element: [],
};

const NEST_FIX = 'is a `}` missing before it?';

/**
 * A stack machine over tokens. Recovery follows one idea: when a known group opens where it cannot
 * stand, the author most likely forgot a `}`, so the open groups are closed up to the nearest one
 * that can hold it. One missing brace then costs one error, not a cascade.
 */
/** Deeper nesting than this is refused: real markup has three levels, and the writers recurse. */
export const MAX_NESTING = 100;

class Parser {
  readonly document: MarkupDocument = { kind: 'document', items: [] };
  readonly errors: MarkupError[] = [];
  private readonly stack: Frame[] = [{ kind: 'document' }];
  private tooDeep = false;

  constructor(private readonly file: string) {}

  readonly report = (code: MarkupErrorCode, message: string, pos: Position, fix?: string): void => {
    this.errors.push(new MarkupError(code, message, { file: this.file, ...pos }, fix));
  };

  take(token: Token): void {
    switch (token.t) {
      case 'open':
        return this.open(token.name, token.pos);
      case 'close':
        return this.close(token.pos);
      case 'control':
        return this.control(token.name, token.value, token.reported, token.pos);
      case 'text':
        return this.text(token.text, token.pos);
      case 'eof':
        return this.end(token.pos);
    }
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1]!;
  }

  private open(name: string | null, pos: Position): void {
    if (this.stack.length > MAX_NESTING) {
      // Said once; what is deeper stays out of the document, so no reader or writer of it recurses that far.
      if (!this.tooDeep) this.report('too-deep', `groups nested deeper than ${MAX_NESTING}`, pos, 'close groups sooner: a story needs sections, nodes and sentences, not hundreds of levels');
      this.tooDeep = true;
      this.push({ kind: 'element', el: element(name ?? '', pos), open: pos });
      return;
    }
    const frame = this.top;
    if (name === null) {
      this.report(
        'unnamed-group',
        '`{` opens a group without a name',
        pos,
        'start it with `{\\node`, `{\\sen` or another `\\word`, or write `\\{` for a literal brace',
      );
      this.push({ kind: 'element', el: element('', pos), open: pos });
      return;
    }
    if (frame.kind === 'element') {
      const el = element(name, pos);
      frame.el.children.push(el);
      this.push({ kind: 'element', el, open: pos });
      return;
    }
    if (isGroupWord(name)) return this.openKnown(name, pos);
    const el = element(name, pos);
    if (frame.kind === 'sentence') {
      this.report(
        'misplaced-group',
        `\`{\\${name}\` inside a sentence`,
        pos,
        'sentences hold only text; write `\\{` and `\\}` for literal braces',
      );
    } else {
      this.attach(frame, el);
    }
    this.push({ kind: 'element', el, open: pos });
  }

  private openKnown(name: GroupWord, pos: Position): void {
    const frame = this.top;
    if (!ACCEPTS[frame.kind].includes(name)) {
      const holder = this.findHolder(name);
      if (holder < 0) {
        // Only a sentence can get here: neither the document nor a section holds one.
        this.report('misplaced-group', '`{\\sen` outside a node', pos, 'put sentences inside a `{\\node \\meta="…" …}` group');
        this.push({ kind: 'sentence', el: { kind: 'sentence', text: '', pos }, open: pos, raw: [] });
        return;
      }
      const inner = frame as Exclude<Frame, { kind: 'document' }>;
      this.report(
        'misplaced-group',
        `\`{\\${name}\` cannot stand inside the \`${label(inner)}\` opened at ${inner.open.line}:${inner.open.col}`,
        pos,
        NEST_FIX,
      );
      while (this.stack.length - 1 > holder) this.finish(this.stack.pop()!);
    }
    const parent = this.top;
    if (name === 'section') {
      const el: Section = { kind: 'section', attributes: [], items: [], pos };
      this.attach(parent, el);
      this.push({ kind: 'section', el, open: pos });
    } else if (name === 'node') {
      const el: Node = { kind: 'node', meta: [], sentences: [], attributes: [], content: [], pos };
      this.attach(parent, el);
      this.push({ kind: 'node', el, open: pos });
    } else {
      const el: Sentence = { kind: 'sentence', text: '', pos };
      this.attach(parent, el);
      this.push({ kind: 'sentence', el, open: pos, raw: [] });
    }
  }

  /** Index of the innermost open frame that may hold the group, or -1. */
  private findHolder(name: GroupWord): number {
    for (let k = this.stack.length - 1; k >= 0; k--) {
      if (ACCEPTS[this.stack[k]!.kind].includes(name)) return k;
    }
    return -1;
  }

  private close(pos: Position): void {
    if (this.stack.length === 1) {
      this.report('stray-close', 'stray `}`: no group is open here', pos, 'remove it, or write `\\}` for a literal brace');
      return;
    }
    this.finish(this.stack.pop()!);
  }

  private control(name: string, value: string | null, reported: boolean, pos: Position): void {
    const frame = this.top;
    if (frame.kind === 'document') {
      this.report(
        'misplaced-control',
        `\`\\${name}\` outside any group`,
        pos,
        'control words go inside a group such as `{\\node …}`; write `\\\\` for a literal backslash',
      );
      return;
    }
    if (frame.kind === 'sentence') {
      this.report('misplaced-control', `\`\\${name}\` inside a sentence`, pos, 'sentences hold only text; write `\\\\` for a literal backslash');
      return;
    }
    // A bad `\name=` was reported by the lexer; keeping it as a flag would change its meaning.
    if (value === null && reported) return;
    if (frame.kind !== 'element') {
      if (isGroupWord(name)) {
        this.report('misplaced-control', `\`\\${name}\` must open a group`, pos, `write \`{\\${name} …}\``);
        return;
      }
      if (frame.kind === 'node' && name === 'meta') return this.meta(frame, value, pos);
      if (name === 'id' && value === null) {
        this.report('needs-value', '`\\id` needs a quoted value', pos, 'write \\id="name"');
        return;
      }
    }
    const attributes = frame.el.attributes;
    const first = attributes.find((a) => a.name === name);
    if (first) {
      this.report('duplicate-attribute', `\`\\${name}\` is given twice in one group${firstAt(first.pos)}`, pos, 'keep one of them');
      return;
    }
    attributes.push({ name, value, pos } satisfies Attribute);
  }

  private meta(frame: Extract<Frame, { kind: 'node' }>, value: string | null, pos: Position): void {
    if (value === null) {
      this.report('needs-value', '`\\meta` needs a quoted value', pos, 'write \\meta="word, word, word"');
      return;
    }
    if (frame.metaAt) {
      this.report('duplicate-attribute', `\`\\meta\` is given twice in one node${firstAt(frame.metaAt)}`, pos, 'put all the words in one \\meta="…"');
      return;
    }
    frame.metaAt = pos;
    frame.el.meta = splitMeta(value);
  }

  private text(text: string, pos: Position): void {
    const frame = this.top;
    switch (frame.kind) {
      case 'sentence':
        frame.raw.push(text);
        return;
      case 'node':
        return pushRun(frame.el.content, text, pos);
      case 'element':
        return pushRun(frame.el.children, text, pos);
      case 'section':
      case 'document': {
        const at = firstVisible(text, pos);
        if (!at) return;
        const where = frame.kind === 'section' ? 'text directly inside a section' : 'text outside any node';
        this.report('misplaced-text', where, at, 'put it in `{\\sen …}` inside a `{\\node \\meta="…" …}` group');
        return;
      }
    }
  }

  /** Unclosed groups are reported where they open: that is where the author must look. */
  private end(eof: Position): void {
    while (this.stack.length > 1) {
      const frame = this.stack.pop() as Exclude<Frame, { kind: 'document' }>;
      this.report(
        'unclosed-group',
        `unclosed \`${label(frame)}\`: the file ends (line ${eof.line}) before its \`}\``,
        frame.open,
        'add `}` where the group ends',
      );
      this.finish(frame);
    }
  }

  private push(frame: Frame): void {
    this.stack.push(frame);
  }

  private attach(parent: Frame, item: Section | Node | Sentence | UnknownElement): void {
    switch (parent.kind) {
      case 'document':
        this.document.items.push(item as Section | Node | UnknownElement);
        return;
      case 'section':
        parent.el.items.push(item as Node | UnknownElement);
        return;
      case 'node':
        parent.el.content.push(item as Sentence | UnknownElement);
        return;
      case 'element':
        parent.el.children.push(item as UnknownElement);
        return;
      case 'sentence':
        throw new Error('a sentence holds no groups');
    }
  }

  private finish(frame: Frame): void {
    if (frame.kind === 'sentence') frame.el.text = foldSpace(frame.raw.join(' '));
    else if (frame.kind === 'node') {
      frame.el.sentences = frame.el.content.filter((c): c is Sentence => c.kind === 'sentence').map((s) => s.text);
    }
  }
}

function isGroupWord(name: string): name is GroupWord {
  return GROUP_WORDS.has(name);
}

function element(name: string, pos: Position): UnknownElement {
  return { kind: 'element', name, attributes: [], children: [], pos };
}

function label(frame: Exclude<Frame, { kind: 'document' }>): string {
  switch (frame.kind) {
    case 'section':
      return '{\\section';
    case 'node':
      return '{\\node';
    case 'sentence':
      return '{\\sen';
    case 'element':
      return frame.el.name ? `{\\${frame.el.name}` : '{';
  }
}

function firstAt(pos: Position | undefined): string {
  return pos ? ` (first at ${pos.line}:${pos.col})` : '';
}

/**
 * Adds folded text to a content list. A run that follows another run (a control word stood
 * between them and moved to the group's head) joins it, so the canonical form reads back the same.
 */
function pushRun(list: (TextRun | Sentence | UnknownElement)[], text: string, pos: Position): void {
  const folded = foldSpace(text);
  if (folded === '') return;
  const last = list[list.length - 1];
  if (last?.kind === 'text') {
    last.text = `${last.text} ${folded}`;
    return;
  }
  list.push({ kind: 'text', text: folded, pos: firstVisible(text, pos) ?? pos });
}

/** Position of the first character of the run that is not layout space, or undefined. */
function firstVisible(text: string, pos: Position): Position | undefined {
  let { line, col } = pos;
  for (const ch of text) {
    if (ch === '\n') {
      line++;
      col = 1;
    } else if (isLayoutSpace(ch)) col++;
    else return { line, col };
  }
  return undefined;
}
