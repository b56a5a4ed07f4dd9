import { parse, HTMLElement, NodeType, TextNode, type Node } from 'node-html-parser';
import { capNesting, flattenBeyond } from './nesting.js';
import { OpenStack, VOID_TAGS, type Tag } from './tags.js';
import { decodeVisible, detectEncoding } from './decode.js';
import { cutUnseen } from './unseen.js';
import { cutAtElements, MAX_ELEMENTS } from './limits.js';

export { HTMLElement, NodeType, TextNode, type Node };

/** The root of a parsed document. Parse once with `parseDom` and hand it to every extractor. */
export type Dom = HTMLElement;

const VOID = new Set(VOID_TAGS);

/**
 * Start tags that close an open `<p>` in the HTML tree builder. node-html-parser closes a p only
 * at another p or a div, so without this fix a menu `<ul>` after an unclosed `<p>` would be read
 * as part of that paragraph.
 */
const CLOSES_P = new Set(
  ('address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form ' +
    'h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul').split(' '),
);

/**
 * Parses HTML into a tree that keeps block structure: tag names lower-cased (old pages mix
 * `<P>` with `</p>`), comments, scripts, styles and templates gone (unseen.ts). `noscript` stays
 * as an element: its links are real to a crawler that runs no script, and text extraction skips
 * it. No element is deeper than MAX_DEPTH (nesting.ts): deeper ones are laid side by side. A page
 * of more than MAX_ELEMENTS elements is read up to there (elementsCut).
 */
export function parseDom(html: string): Dom {
  return parseVisible(cutUnseen(html));
}

/**
 * The tree of a page's bytes, decoded as a browser would (decode.ts) with what no reader sees cut
 * before decoding where the encoding allows: parseDom(decodeHtml(bytes, contentType).text) for a
 * reader that needs the tree alone.
 */
export function parseBytes(bytes: Uint8Array, contentType?: string | null): Dom {
  return parseVisible(decodeVisible(bytes, detectEncoding(bytes, contentType)));
}

/** The trees parsed from pages cut at MAX_ELEMENTS. */
const cutTrees = new WeakSet<Dom>();

/** Whether the page was read only up to its MAX_ELEMENTS-th element. */
export const elementsCut = (dom: Dom): boolean => cutTrees.has(dom);

/** parseDom of a page whose unseen parts are already cut (decodeVisible). */
function parseVisible(visible: string): Dom {
  const cut = cutAtElements(visible, MAX_ELEMENTS);
  const root = parse(capNesting(cut ?? visible, { dropEnd: misnestedEnds() }).html, {
    lowerCaseTagName: true,
    comment: false,
    // No raw-text elements: pre and noscript are parsed as markup (unseen.ts cut the rest).
    blockTextElements: {},
    // Browsers keep an element left open; the parser's default would delete it (text and all
    // attributes but its children), losing e.g. the src of a `<frame>` or a final `<p>`.
    parseNoneClosedTags: true,
    // An end tag closes every element opened inside its element, as in the HTML tree builder.
    closeAllByClosing: true,
    voidTag: { tags: [...VOID_TAGS] },
  });
  flattenBeyond(root);
  leaveHead(root);
  closeParagraphs(root);
  if (cut !== undefined) cutTrees.add(root);
  return root;
}

/** What a `<head>` may hold; anything else starts the body, as in the HTML tree builder. */
const HEAD_TAGS = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template', 'basefont', 'bgsound']);

/**
 * A `<head>` that is never closed swallows the page: the parser keeps the body inside it, where no
 * reader looks. The first child that is not head content (a `<body>`, a `<p>`, text) and all
 * after it move out, after the head, where a browser puts them.
 */
function leaveHead(root: HTMLElement): void {
  // The head is the root's child, or its <html>'s: no need to walk the rest of the tree for it.
  const html = root.childNodes.find((c): c is HTMLElement => isElement(c) && tagOf(c) === 'html');
  const head = [...root.childNodes, ...(html?.childNodes ?? [])].find((c): c is HTMLElement => isElement(c) && tagOf(c) === 'head');
  if (!head?.parentNode) return;
  const at = head.childNodes.findIndex((c) => (isElement(c) ? !HEAD_TAGS.has(tagOf(c)) : c.rawText.trim() !== ''));
  if (at < 0) return;
  const parent = head.parentNode;
  const moved = head.childNodes.splice(at);
  for (const m of moved) m.parentNode = parent;
  parent.childNodes.splice(parent.childNodes.indexOf(head) + 1, 0, ...moved);
}

/**
 * `<b><p>Some words,</b> and the rest.</p>`: a browser keeps the whole paragraph (the end tag of an
 * inline element that a block opened inside it is still holding is ignored, or the formatting is
 * moved into the block), while the parser would close the paragraph at `</b>` and leave its rest
 * outside. Such end tags are dropped before parsing; the inline element then ends with its parent.
 * The judge sees every tag of capNesting's scan, so the page is read once for both fix-ups.
 */
function misnestedEnds(): (tag: Tag, name: string) => boolean {
  const open = new OpenStack({ block: (t) => !INLINE_TAGS.has(t) });
  return (m, tag) => {
    if (!m.closing) {
      if (VOID.has(tag) || m.attrs.endsWith('/')) return false;
      if (CLOSES_P.has(tag)) {
        const p = open.nearest('p');
        if (p >= 0) open.truncate(p);
      }
      open.push(tag);
      return false;
    }
    const at = open.nearest(tag);
    if (at < 0) return false;
    // An element opened after it and still open is a block.
    if (INLINE_TAGS.has(tag) && open.hasAbove(at, 'block')) return true;
    open.truncate(at);
    return false;
  };
}

/** Elements that do not break a line: their text runs on with the words around them. */
export const INLINE_TAGS: ReadonlySet<string> = new Set(
  ('a abbr acronym b bdi bdo big cite code data del dfn em font i img ins kbd mark nobr q rp rt ruby s samp ' +
    'small span strike strong sub sup time tt u var wbr label').split(' '),
);

/** The lower-case tag name of an element ('' for the root). */
export function tagOf(el: HTMLElement): string {
  return el.rawTagName ? el.rawTagName.toLowerCase() : '';
}

export function isElement(n: Node): n is HTMLElement {
  return n.nodeType === NodeType.ELEMENT_NODE;
}

function closeParagraphs(root: HTMLElement): void {
  const stack: HTMLElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (tagOf(el) === 'p' && el.parentNode) {
      const at = el.childNodes.findIndex((c) => isElement(c) && CLOSES_P.has(tagOf(c)));
      if (at >= 0) {
        const parent = el.parentNode;
        const moved = el.childNodes.splice(at);
        for (const m of moved) {
          m.parentNode = parent;
          if (isElement(m)) stack.push(m);
        }
        parent.childNodes.splice(parent.childNodes.indexOf(el) + 1, 0, ...moved);
      }
    }
    for (const c of el.childNodes) if (isElement(c)) stack.push(c);
  }
}
