import { NodeType, type HTMLElement, type Node } from 'node-html-parser';
import { OpenStack, TagScanner, VOID_TAGS, type Tag } from './tags.js';

/**
 * How deep a page may nest. Blink's HTML parser stops at 512 elements (kMaximumHTMLParserDOMTreeDepth)
 * and lays deeper ones side by side under the deepest; anwc lays the wrappers of a deeper nesting
 * side by side the same way. Past that depth a page is an attack, not a layout: 4,000 nested divs
 * overflowed the stack of the parsers' text getters and of the reference walk, and parse5 spends
 * time in the square of the depth (each block start looks for an open `<p>` through every open
 * element). The limit is set before parsing, not by patching the parsers.
 */
export const MAX_DEPTH = 512;

/** Elements whose content parse5 reads as text, not tags (scripting on, as a browser parses). */
export const HTML5_RAW_TEXT: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

const VOID = new Set(VOID_TAGS);
const set = (s: string) => new Set(s.split(' '));

/** The HTML standard's "special" elements: an end tag of another element does not close one of them. */
const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt ' +
    'embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link ' +
    'listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style ' +
    'summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc',
);
/** Elements that end a scope: an end tag does not reach past one of them. */
const SCOPE = set('applet caption html table td th marquee object template mi mo mn ms mtext annotation-xml foreignobject desc');

/**
 * Start tags that close the open element on top, in both parsers (node-html-parser closes only the
 * element on top, the HTML tree builder sometimes more): a list of unclosed `<li>` or a table of
 * unclosed cells is long, not deep.
 */
const CLOSED_BY = new Map<string, ReadonlySet<string>>([
  ['p', set('p div')],
  ['li', set('li')],
  ['dt', set('dt dd')],
  ['dd', set('dt dd')],
  ['td', set('td th tr tbody tfoot')],
  ['th', set('td th tr tbody tfoot')],
  ['tr', set('tr tbody tfoot')],
  ['thead', set('tbody tfoot')],
  ['tbody', set('tbody tfoot')],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h): [string, ReadonlySet<string>] => [h, set('h1 h2 h3 h4 h5 h6')]),
]);

/** End tags that close nothing in a browser: the body runs on after `</body>` and `</html>`. */
const NEVER_CLOSE = set('html body');

export interface Capped {
  /** The page with what lies deeper than the limit laid flat; the same string when nothing does. */
  html: string;
  /** Where a span of `html` came from in the page as given (wrappers past the limit gained an end tag, their own end tags went). */
  source(start: number, end: number): { start: number; end: number };
}

/**
 * Content that nests no deeper than this is kept whole past the limit: the paragraph, list or
 * small table at the bottom of a hostile nesting is still read as one.
 */
export const KEPT_WHOLE = 32;

/**
 * The page with no element deeper than `max`, rewritten before a parser reads it so that neither
 * its time nor any tree walk grows with a hostile depth. The scan keeps the elements a browser
 * would hold open (implied ends of p, li, cells; an end tag ignored where the tree builder ignores
 * it, as `</span>` past an open `<div>`). Past `max - keep - 1` levels, an element whose content
 * nests deeper than `keep` is a wrapper: it is closed at once, an empty element with its
 * attributes (a link's href) kept, and its own end tag goes, so that what it held follows it at
 * its level, as Blink lays out elements past its limit. What nests no deeper than `keep` is kept
 * whole. A page within the limit is returned as it is.
 *
 * `rawText`: elements whose content the parser to come reads as text (parse5's script, style,
 * textarea…; none for a source whose scripts and comments are already cut). `dropEnd`: shown every
 * tag (its name lower-cased) in order, says which end tags go from the page before the scan reads
 * them, so another fix-up shares this scan.
 */
export function capNesting(
  html: string,
  opts: { max?: number; keep?: number; rawText?: ReadonlySet<string>; dropEnd?: (tag: Tag, name: string) => boolean } = {},
): Capped {
  const keep = opts.keep ?? KEPT_WHOLE;
  const cut = (opts.max ?? MAX_DEPTH) - keep - 1;
  const rawText = opts.rawText ?? new Set<string>();
  const open = new OpenStack({
    special: (t) => SPECIAL.has(t),
    scope: (t) => SCOPE.has(t),
    list: (t) => t === 'ol' || t === 'ul',
    button: (t) => t === 'button',
    foreign: (t) => t === 'svg' || t === 'math',
  });
  // For each open element: where its start tag ends, and how deep its content nests so far.
  const starts: number[] = [];
  const heights: number[] = [];
  const edits: Edit[] = [];
  /** Closes the open elements from position `n` up, top first; true when the one at `n` was a wrapper laid flat. */
  const close = (n: number, laidInside?: string[]): boolean => {
    let laid = false;
    for (let i = open.length - 1; i >= n; i--) {
      if (i > 0) heights[i - 1] = Math.max(heights[i - 1]!, heights[i]! + 1);
      laid = i >= cut && heights[i]! > keep;
      if (laid) edits.push({ at: starts[i]!, drop: 0, insert: `</${open.at(i)}>` });
      else if (laidInside) laidInside.push(open.at(i));
    }
    open.truncate(n);
    starts.length = n;
    heights.length = n;
    return laid;
  };
  /** An element that holds nothing: it still takes a level. */
  const leaf = () => {
    if (open.length > 0) heights[open.length - 1] = Math.max(heights[open.length - 1]!, 1);
  };
  const tags = new TagScanner(html, { comments: true });
  for (let m = tags.next(); m; m = tags.next()) {
    const name = m.name.toLowerCase();
    if (opts.dropEnd?.(m, name)) {
      edits.push({ at: m.index, drop: m.end - m.index, insert: '' });
      continue;
    }
    if (!m.closing) {
      const foreign = open.hasAbove(-1, 'foreign') || name === 'svg' || name === 'math';
      if (rawText.has(name) && !foreign) {
        // The content is text up to the matching end tag, whatever it looks like.
        const end = rawEnd(name);
        end.lastIndex = m.end;
        tags.at = end.exec(html)?.index ?? html.length;
        leaf();
        continue;
      }
      // A self-closing slash ends only void and foreign (svg, math) elements in the HTML standard.
      if (VOID.has(name) || (foreign && m.attrs.endsWith('/'))) {
        leaf();
        continue;
      }
      while (CLOSED_BY.get(open.top() ?? '')?.has(name)) close(open.length - 1);
      open.push(name);
      starts.push(m.end);
      heights.push(0);
      continue;
    }
    if (NEVER_CLOSE.has(name)) continue;
    const k = open.nearest(name);
    if (k < 0) continue;
    const ignored = SPECIAL.has(name)
      ? open.hasAbove(k, 'scope') || (name === 'li' && open.hasAbove(k, 'list')) || (name === 'p' && open.hasAbove(k, 'button'))
      : open.hasAbove(k, 'special');
    if (ignored) continue;
    // Only an element past the cut can have been laid flat: the names of what it holds are kept for it alone.
    const kept = k >= cut ? [] : undefined;
    close(k + 1, kept);
    // A wrapper was closed when it opened: its end tag goes, and what it held that was kept whole ends here.
    if (close(k) && kept) edits.push({ at: m.index, drop: m.end - m.index, insert: kept.map((t) => `</${t}>`).join('') });
  }
  close(0);
  return edits.length === 0 ? { html, source: (start, end) => ({ start, end }) } : rewrite(html, edits);
}

interface Edit {
  /** Where in the source: an end tag inserted there, or `drop` characters from there replaced. */
  at: number;
  drop: number;
  insert: string;
}

const rawEnds = new Map<string, RegExp>();
function rawEnd(name: string): RegExp {
  let r = rawEnds.get(name);
  if (!r) rawEnds.set(name, (r = new RegExp(`</${name}(?=[\\s/>])`, 'ig')));
  return r;
}

/** Applies the edits, keeping where each copied piece came from. */
function rewrite(html: string, edits: Edit[]): Capped {
  // A wrapper's end tag is inserted when it closes, after those of the wrappers it held.
  edits.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  // Copied pieces: their start in the output and in the source, ascending.
  const outAt: number[] = [];
  const srcAt: number[] = [];
  let from = 0;
  let length = 0;
  const copy = (to: number) => {
    if (to <= from) return;
    outAt.push(length);
    srcAt.push(from);
    parts.push(html.slice(from, to));
    length += to - from;
  };
  for (const e of edits) {
    copy(e.at);
    parts.push(e.insert);
    length += e.insert.length;
    from = e.at + e.drop;
  }
  copy(html.length);
  const toSource = (at: number): number => {
    let lo = 0;
    let hi = outAt.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (outAt[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return srcAt[lo]! + (at - outAt[lo]!);
  };
  // A span's last character, not its end, is looked up: the end of a tag may be where a dropped end tag began.
  return { html: parts.join(''), source: (start, end) => ({ start: toSource(start), end: end > start ? toSource(end - 1) + 1 : toSource(start) }) };
}

/**
 * The same limit on a parsed tree: an element at depth `max` holds no element; the elements it
 * held follow it, beside it, each in turn emptied of elements the same way. capNesting's scan is
 * close to the parsers' but not theirs; this makes the bound exact, so no walk over the tree, the
 * parser's own recursive getters (text, structuredText) included, goes deeper.
 */
export function flattenBeyond(root: HTMLElement, max: number = MAX_DEPTH): void {
  const stack: { el: HTMLElement; depth: number }[] = [{ el: root, depth: 0 }];
  while (stack.length) {
    const { el, depth } = stack.pop()!;
    if (depth === max - 1) {
      layFlat(el);
      continue;
    }
    for (const c of el.childNodes) if (isElement(c)) stack.push({ el: c, depth: depth + 1 });
  }
}

const holdsElements = (n: Node): boolean => isElement(n) && n.childNodes.some(isElement);

function layFlat(el: HTMLElement): void {
  if (!el.childNodes.some(holdsElements)) return;
  const flat: Node[] = [];
  const todo: Node[] = [...el.childNodes].reverse();
  while (todo.length) {
    const n = todo.pop()!;
    flat.push(n);
    n.parentNode = el;
    if (!holdsElements(n)) continue;
    const kids = n.childNodes;
    (n as HTMLElement).childNodes = [];
    for (let i = kids.length - 1; i >= 0; i--) todo.push(kids[i]!);
  }
  el.childNodes = flat;
}

function isElement(n: Node): n is HTMLElement {
  return n.nodeType === NodeType.ELEMENT_NODE;
}
