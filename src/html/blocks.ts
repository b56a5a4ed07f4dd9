import { UserError } from '../errors.js';
import { INLINE_TAGS, isElement, parseDom, tagOf, TextNode, type Dom, type HTMLElement, type Node } from './dom.js';

/** One candidate narrative node: the text of one block element of the page. */
export interface Block {
  /** Position among the returned blocks, in document order of their start tags. */
  index: number;
  tag: string;
  /** Whitespace collapsed, entities decoded; text of nested blocks is not repeated here. */
  text: string;
  /** Characters (not counting whitespace) inside `<a href>`, divided by all characters. */
  linkDensity: number;
  /** A short CSS-like path such as `div#content>div.para>p`, to find the block again. */
  path: string;
  /** Why the block's structure disqualifies it before any text rule runs: 'nested-table' or 'link-density'. */
  rejected?: string;
  /** Its last words (beyond closing punctuation) are link text: a call to follow the link, or a link the text ends on. */
  endsInLink: boolean;
  /** The marks ("*", "•", "-" …) that open its lines as a list's bullets, one a line; absent when none does. */
  bullets?: string;
}

export interface BlockOptions {
  /** The page's URL; kept for callers' reports, the text does not depend on it. */
  url?: string;
  /** Tags read as blocks besides p and table, e.g. ['div', 'li'] for pages that write prose in divs. */
  blocks?: string[];
  /**
   * Reject blocks with a larger share of link text, reason 'link-density'. Not a thesis rule, so
   * off by default; 0.5 lifts precision on the extraction benchmark (bench/extraction.ts).
   */
  maxLinkDensity?: number;
  /** Subtrees left out whole (the narrative extractor's boilerplate: navigation, share bars, comments). */
  skip?: (el: HTMLElement) => boolean;
  /**
   * A blank line made of two `<br>` ends a paragraph, as it does on the screen: the text on each
   * side is a block of its own (pages that write a story as text runs in one div or cell).
   */
  splitAtBlankLines?: boolean;
}

/** The thesis reads paragraphs and tables (section 3.2.2). */
export const DEFAULT_BLOCK_TAGS: readonly string[] = ['p', 'table'];

/**
 * A line that opens with one mark and a space is an item of a list typed as text ("* fixed the
 * door", "• two eggs"): the mark is its bullet. A mark inside a line is not one.
 */
const BULLET = /^\s*([*+\-–•·‣◦▪■□●○►▸])\s/u;

/** Text with a letter or digit in it: what a block's last words are (a closing "." or ")" is not). */
const WORDY = /[\p{L}\p{N}]/u;

/** Subtrees a reader does not see as page text. */
const SKIP = new Set(['noscript', 'head', 'title', 'select', 'option', 'textarea', 'svg', 'math', 'button']);

const PATH_DEPTH = 4;
const TAG_NAME = /^[a-z][a-z0-9-]*$/;

/** Checks and normalizes a list of extra block tags (from a flag such as `--blocks div,li`). */
export function blockTags(extra: readonly string[] = []): Set<string> {
  const tags = new Set(DEFAULT_BLOCK_TAGS);
  for (const raw of extra) {
    const t = raw.trim().toLowerCase();
    if (t === '') continue;
    if (!TAG_NAME.test(t)) throw new UserError('not an HTML tag name', { value: raw, fix: 'give tag names such as div,li,blockquote' });
    tags.add(t);
  }
  return tags;
}

interface Collector {
  el: HTMLElement;
  tag: string;
  parts: string[];
  linkChars: number;
  nestedTable: boolean;
  /** Where a blank line (a second `<br>` with no text since the first) cut the text: part index, link characters before it, how the text before it ended. */
  cuts: { part: number; linkChars: number; endsInLink: boolean }[];
  /** The last words so far were link text. */
  endsInLink: boolean;
  /** A `<br>` came and no text since. */
  afterBreak: boolean;
  /** No text yet since the block began or since a `<br>`: the next text opens a line. */
  lineStart: boolean;
  /** The bullets of its lines, with the part each was found in (to share them among the pieces cut at blank lines). */
  bullets: { part: number; mark: string }[];
}

type Frame = { node: Node; block?: Collector; inLink: boolean } | { end: Collector } | { space: Collector };

/**
 * The blocks of a page, each `<p>` and each `<table>` by default. Every block keeps only its own
 * text: a table's paragraphs, or a div's inner paragraphs when div is a block tag, are blocks of
 * their own, so no word is counted twice. A table that holds another table is returned with
 * `rejected: 'nested-table'`, as the thesis treats it as layout rather than content.
 */
export function extractBlocks(html: string | Dom, options: BlockOptions = {}): Block[] {
  const tags = blockTags(options.blocks);
  const maxLd = options.maxLinkDensity;
  if (maxLd !== undefined && !(maxLd >= 0 && maxLd <= 1)) {
    throw new UserError('link density limit must be between 0 and 1', { value: String(maxLd), fix: 'give a fraction such as 0.5' });
  }
  const root = typeof html === 'string' ? parseDom(html) : html;
  const found: Collector[] = [];
  const openTables: Collector[] = [];
  // An explicit stack rather than recursion: hostile pages nest elements tens of thousands deep.
  const stack: Frame[] = [{ node: root, inLink: false }];
  while (stack.length) {
    const f = stack.pop()!;
    if ('end' in f) {
      if (f.end.tag === 'table') openTables.pop();
      continue;
    }
    if ('space' in f) {
      f.space.parts.push(' ');
      continue;
    }
    const { node, block, inLink } = f;
    if (!isElement(node)) {
      if (block && node instanceof TextNode) {
        const t = node.text;
        block.parts.push(t);
        if (inLink) block.linkChars += t.replace(/\s+/g, '').length;
        if (block.afterBreak && /\S/.test(t)) block.afterBreak = false;
        if (block.lineStart && /\S/.test(t)) {
          const bullet = BULLET.exec(t);
          if (bullet) block.bullets.push({ part: block.parts.length - 1, mark: bullet[1]! });
          block.lineStart = false;
        }
        if (WORDY.test(t)) block.endsInLink = inLink;
      }
      continue;
    }
    const tag = tagOf(node);
    if (SKIP.has(tag) || (options.skip !== undefined && node !== root && options.skip(node))) continue;
    if (tag === 'br') {
      if (!block) continue;
      block.parts.push(' ');
      if (block.afterBreak && options.splitAtBlankLines) block.cuts.push({ part: block.parts.length, linkChars: block.linkChars, endsInLink: block.endsInLink });
      block.afterBreak = true;
      block.lineStart = true;
      continue;
    }
    let owner = block;
    if (tags.has(tag)) {
      owner = { el: node, tag, parts: [], linkChars: 0, nestedTable: false, cuts: [], afterBreak: false, endsInLink: false, lineStart: true, bullets: [] };
      found.push(owner);
      block?.parts.push(' ');
      if (tag === 'table') {
        for (const t of openTables) t.nestedTable = true;
        openTables.push(owner);
      }
      stack.push({ end: owner });
    } else if (owner && !INLINE_TAGS.has(tag) && tag !== '') {
      owner.parts.push(' ');
      stack.push({ space: owner });
    }
    const link = inLink || (tag === 'a' && node.hasAttribute('href'));
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, block: owner, inLink: link });
  }

  const out: Block[] = [];
  for (const c of found) {
    for (const piece of paragraphsOf(c)) {
      const text = piece.text.replace(/\s+/g, ' ').trim();
      // An empty piece between blank lines is no block; a table holding only a table is still reported.
      if (text === '' && (!c.nestedTable || c.cuts.length > 0)) continue;
      const chars = text.replace(/\s+/g, '').length;
      const linkDensity = chars === 0 ? 0 : Math.min(1, piece.linkChars / chars);
      const rejected = c.nestedTable ? 'nested-table' : maxLd !== undefined && linkDensity > maxLd ? 'link-density' : undefined;
      const block: Block = { index: out.length, tag: c.tag, text, linkDensity, path: pathOf(c.el), endsInLink: piece.endsInLink };
      if (piece.bullets !== '') block.bullets = piece.bullets;
      if (rejected) block.rejected = rejected;
      out.push(block);
    }
  }
  return out;
}

/** The collected text, cut at its blank lines, with the bullets of each piece's lines. */
function paragraphsOf(c: Collector): { text: string; linkChars: number; endsInLink: boolean; bullets: string }[] {
  // Pieces come in order, and so do bullets: each piece takes those found before its end.
  let next = 0;
  const marks = (to: number) => {
    let s = '';
    while (next < c.bullets.length && c.bullets[next]!.part < to) s += c.bullets[next++]!.mark;
    return s;
  };
  if (c.cuts.length === 0) return [{ text: c.parts.join(''), linkChars: c.linkChars, endsInLink: c.endsInLink, bullets: marks(c.parts.length) }];
  const out: { text: string; linkChars: number; endsInLink: boolean; bullets: string }[] = [];
  let from = { part: 0, linkChars: 0 };
  for (const cut of [...c.cuts, { part: c.parts.length, linkChars: c.linkChars, endsInLink: c.endsInLink }]) {
    out.push({ text: c.parts.slice(from.part, cut.part).join(''), linkChars: cut.linkChars - from.linkChars, endsInLink: cut.endsInLink, bullets: marks(cut.part) });
    from = cut;
  }
  return out;
}

/** `tag#id` or `tag.class` for the element and its nearest ancestors, outermost first. */
export function pathOf(el: HTMLElement): string {
  const segs: string[] = [];
  for (let e: HTMLElement | null = el; e && tagOf(e) && segs.length < PATH_DEPTH; e = e.parentNode) {
    const tag = tagOf(e);
    if (tag === 'html' || tag === 'body') break;
    const id = e.getAttribute('id')?.trim();
    const cls = e.getAttribute('class')?.trim().split(/\s+/)[0];
    segs.push(id ? `${tag}#${id}` : cls ? `${tag}.${cls}` : tag);
  }
  return segs.reverse().join('>');
}
