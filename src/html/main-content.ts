import { INLINE_TAGS, isElement, tagOf, TextNode, type Dom, type HTMLElement, type Node } from './dom.js';

/*
 * Where a page keeps its main text, found the way Mozilla's Readability finds it (its scoring, in
 * brief and on our light DOM): every paragraph-like element with some text gives points to its
 * parent and, less, to its ancestors; an ancestor starts from a prior by tag and by class or id
 * ("article", "content" up; "comment", "sidebar" down); the best-scored element, its score cut by
 * its share of link text, is the article, with those of its siblings that score near it or read
 * as prose. No rule names a site, a page or a phrase.
 */

/*
 * Class and id names are read as words: split at anything but letters and digits and at a
 * lower-to-upper case change ("postBody", "entry-content", "sidebar_left"). A cue matches a word it
 * equals; `x*` also a word that begins with x and `*x` one that ends with it ("comments", "navbar",
 * "sitefooter"), so "-ad-" inside "non-adaptive" or "nav" inside "canvas" no longer reads as one.
 * Beside Readability's English cues, those of the languages whose pages anwc meets most (de, es,
 * fr, it, nl, pt), in ASCII as class names are written.
 */
const POSITIVE_CUES = ['article*', 'body', 'content*', '*content', 'entry', 'hentry', 'main', 'page', 'pagination', 'post', '*post', 'text', 'blog*', 'story', 'stories',
  'artikel', 'inhalt', 'beitrag', 'articulo', 'contenido', 'noticia', 'contenu', 'articolo', 'contenuto', 'artigo', 'conteudo', 'materia', 'bericht'];
const NEGATIVE_CUES = ['ad', 'ads', 'advert*', 'hidden', 'hid', 'banner*', 'combx', 'comment*', '*comments', 'com', 'contact*', 'footer*', '*footer', 'footnote*',
  'gdpr', 'masthead', 'media', '*media', 'meta', '*meta', 'metadata', 'outbrain', 'promo*', 'related*', 'scroll', 'share', 'sharing', 'sharebar', 'sharethis', 'shareaholic',
  'shoutbox', 'sidebar*', '*sidebar', 'skyscraper', 'sponsor*', 'shopping', 'tags', '*tags', 'tool', 'toolbar', 'tools', 'tooltip', 'widget*', '*widget',
  'nav*', '*nav', 'menu*', '*menu', 'breadcrumb*', 'subscribe*', 'newsletter*', 'cookie*', 'social*', 'popup*', 'modal*', 'signup', 'byline', 'author*', 'caption*',
  // de
  'kommentar*', 'werbung', 'anzeige*', 'fusszeile', 'teilen', 'verwandte',
  // es, pt, it
  'comentario*', 'publicidad*', 'rodape', 'relacionad*', 'compartir', 'compartilhar', 'commenti', 'correlati', 'condividi', 'pubblicita',
  // fr, nl
  'commentaire*', 'publicite', 'pied', 'partage*', 'reacties', 'advertentie*', 'gerelateerd', 'delen'];

const cueTest = (cues: readonly string[]) => {
  const exact = new Set(cues.filter((c) => !c.includes('*')));
  const prefixes = cues.filter((c) => c.endsWith('*')).map((c) => c.slice(0, -1));
  const suffixes = cues.filter((c) => c.startsWith('*')).map((c) => c.slice(1));
  return (word: string) => exact.has(word) || prefixes.some((c) => word.startsWith(c)) || suffixes.some((c) => word.endsWith(c));
};
const isPositiveWord = cueTest(POSITIVE_CUES);
const isNegativeWord = cueTest(NEGATIVE_CUES);
/**
 * An id of this many words is a heading made into an anchor ("sharing-with-a-single-developer"),
 * prose rather than a name a designer chose: its words are no cue.
 */
const SLUG_WORDS = 4;

/** The words of a class or id value, lower case. */
export function nameWords(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

interface Cues {
  positive: boolean;
  negative: boolean;
}
/** One cache a kind, keyed by the value itself: a key joining kind and value was a new string to hash at every look-up. */
const cueCache = { class: new Map<string, Cues>(), id: new Map<string, Cues>() };
/**
 * What a class or an id value says of its element; values repeat across a page and a crawl, so
 * they are remembered. An id of SLUG_WORDS words or more says nothing.
 */
function cues(value: string, kind: 'class' | 'id' = 'class'): Cues {
  const cache = cueCache[kind];
  let c = cache.get(value);
  if (c === undefined) {
    const ws = nameWords(value);
    c = kind === 'id' && ws.length >= SLUG_WORDS ? NO_CUES : { positive: ws.some(isPositiveWord), negative: ws.some(isNegativeWord) };
    if (cache.size > 10_000) cache.clear();
    cache.set(value, c);
  }
  return c;
}
const NO_CUES: Cues = { positive: false, negative: false };

/** Elements a reader never takes for the article's text. */
const NOT_TEXT = new Set(['nav', 'aside', 'footer', 'header', 'button', 'select', 'noscript', 'iframe', 'svg', 'math', 'head', 'title', 'figure', 'menu']);
/** Elements whose own text is scored: the places prose sits in. */
const SCORED = new Set(['p', 'td', 'pre', 'blockquote', 'section', 'h2', 'h3', 'h4', 'h5', 'h6']);
const DIV_LIKE = new Set(['div', 'article', 'section', 'main']);
const BLOCK_CHILD = new Set(['a', 'blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul', 'section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figure', 'main']);

interface Scored {
  score: number;
}

/**
 * How boilerplate is recognised: by tag and by class or id (`strict`), or by tag alone, the
 * fallback when the strict reading leaves too little text (a theme that puts "sidebar" in the
 * class of the article's wrapper).
 */
export type Boilerplate = (el: HTMLElement) => boolean;

/** The elements that hold the page's main text, in document order; the whole body when none stands out. */
export function mainContent(root: Dom, boilerplate: Boilerplate = isBoilerplate): HTMLElement[] {
  const scores = new Map<HTMLElement, Scored>();
  const measure = textMeasures(root);
  const award = (owner: HTMLElement | null, { length, commas }: { length: number; commas: number }) => {
    if (length < 25) return;
    const points = 1 + commas + Math.min(Math.floor(length / 100), 3);
    let level = 0;
    for (let a = owner; a && tagOf(a) && level < 5; a = a.parentNode, level++) {
      const s = scores.get(a) ?? (scores.set(a, { score: prior(a) }), scores.get(a)!);
      s.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
    }
  };
  for (const { el, whole } of paragraphs(root, boilerplate)) {
    const runs = looseRuns(el, measure);
    // Loose text parted by blank lines or blocks is paragraphs of the element, as a browser shows
    // them (Readability wraps them in <p>): a story in text runs beside a <p> headline is scored.
    if (runs.length > 1 || !whole) for (const run of runs) award(el, run);
    else award(el.parentNode, measure(el));
  }
  let top: HTMLElement | undefined;
  let best = 0;
  const linkDensity = measure.linkDensity;
  for (const [el, s] of scores) {
    s.score *= 1 - linkDensity(el);
    if (s.score > best) {
      best = s.score;
      top = el;
    }
  }
  if (!top) return [root];
  top = commonAncestor(top, best, scores) ?? top;
  best = scores.get(top)?.score ?? best;
  const scoredTop = top;
  // A lone child of a parent that scores little more is the parent's text cut short (a wrapper div).
  while (top.parentNode && tagOf(top.parentNode) && tagOf(top.parentNode) !== 'body' && top.parentNode.childNodes.filter(isElement).length === 1) {
    top = top.parentNode;
  }
  const parent = top.parentNode;
  if (!parent) return [top];
  const threshold = Math.max(10, best * 0.2);
  const chosen = new Set<HTMLElement>();
  for (const sib of parent.childNodes) {
    if (!isElement(sib)) continue;
    if (sib === top) {
      chosen.add(sib);
      continue;
    }
    if (NOT_TEXT.has(tagOf(sib))) continue;
    const s = scores.get(sib)?.score ?? 0;
    const bonus = (classWeight(sib) > 0 && classWeight(top) > 0) || sameClass(sib, top) ? best * 0.2 : 0;
    if (s + bonus >= threshold) {
      chosen.add(sib);
    } else if (tagOf(sib) === 'p' || (wrapsOneParagraph(sib) && !isBoilerplate(sib))) {
      const text = innerText(sib);
      const ld = linkDensity(sib);
      if ((text.length > 80 && ld < 0.25) || (text.length > 0 && ld === 0 && /\.( |$)/.test(text))) chosen.add(sib);
    }
  }
  // An article cut into pieces by advertisements: the other pieces wear the same class, less the
  // numbers that tell them apart ("story-body story-body-2" is a "story-body").
  const cls = pieceClass(scoredTop);
  // Scored elements only, so the class of every element of the page is not split and sorted.
  const alike = (el: HTMLElement) => (scores.get(el)?.score ?? 0) > 0 && pieceClass(el) === cls;
  return inOrder(root, chosen, cls !== '' && cues(cls).positive ? alike : undefined);
}

/**
 * A sibling that wears the top's class is another part of the same story (Readability's bonus): a
 * site that parts its story at each figure gives each part the class, and a short last part scores
 * far below the long first one. Any class, not only one that reads as content.
 */
function sameClass(sib: HTMLElement, top: HTMLElement): boolean {
  const cls = top.getAttribute('class')?.trim();
  return cls !== undefined && cls !== '' && sib.getAttribute('class')?.trim() === cls;
}

/** An element's class names without those that number it, sorted: what the pieces of one article share. */
function pieceClass(el: HTMLElement): string {
  const cls = el.getAttribute('class');
  if (!cls) return '';
  return cls.trim().split(/\s+/).filter((c) => !/\d/.test(c)).sort().join(' ');
}

/**
 * An article cut into sections (steps, chapters, a block between advertisements) scores in
 * pieces: when three or more of the best-scored elements after the top score near it (three
 * quarters or more), their nearest common ancestor below the body holds the article (Readability's
 * alternative candidates).
 */
const TOP_CANDIDATES = 5;
const NEAR_TOP = 0.75;
const MIN_NEAR = 3;
function commonAncestor(top: HTMLElement, best: number, scores: Map<HTMLElement, Scored>): HTMLElement | undefined {
  const near = [...scores.entries()]
    .filter(([el]) => el !== top)
    .sort((a, b) => b[1].score - a[1].score)
    .slice(0, TOP_CANDIDATES - 1)
    .filter(([, s]) => best > 0 && s.score / best >= NEAR_TOP)
    .map(([el]) => el);
  if (near.length < MIN_NEAR) return undefined;
  for (let a = top.parentNode; a && tagOf(a) && tagOf(a) !== 'body'; a = a.parentNode) {
    let holds = 0;
    for (const el of near) if (isAncestor(a, el)) holds++;
    if (holds >= MIN_NEAR) return a;
  }
  return undefined;
}

function isAncestor(a: HTMLElement, el: HTMLElement): boolean {
  for (let p = el.parentNode; p; p = p.parentNode) if (p === a) return true;
  return false;
}

/** The chosen elements, and those `alike` outside them, in document order; nothing inside one chosen is listed again. */
function inOrder(root: Dom, chosen: Set<HTMLElement>, alike?: (el: HTMLElement) => boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (chosen.has(n) || (alike !== undefined && alike(n))) {
      out.push(n);
      continue;
    }
    const kids = n.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}

/** Elements a reader skips by their tag (navigation, asides, page headers and footers) or never sees. */
export function isBoilerplateTag(el: HTMLElement): boolean {
  return NOT_TEXT.has(tagOf(el)) || isHidden(el);
}

/** Elements that are left out of the text however they score (navigation, asides, hidden, and class/id that say so). */
export function isBoilerplate(el: HTMLElement): boolean {
  if (isBoilerplateTag(el)) return true;
  const cls = el.getAttribute('class');
  const id = el.getAttribute('id');
  if (!cls && !id) return false;
  const a = cls ? cues(cls) : NO_CUES;
  const b = id ? cues(id, 'id') : NO_CUES;
  return (a.negative || b.negative) && !(a.positive || b.positive) && tagOf(el) !== 'body' && tagOf(el) !== 'article' && tagOf(el) !== 'main';
}

/**
 * What a browser does not show is no text of the page: `hidden`, `aria-hidden="true"`, an inline
 * `display: none` or `visibility: hidden` (structured data, a second copy of the body for another
 * layout, a consent dialog's text). A `<template>` is never rendered.
 */
export function isHidden(el: HTMLElement): boolean {
  if (tagOf(el) === 'template' || el.hasAttribute('hidden')) return true;
  if (el.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') return true;
  const style = el.getAttribute('style');
  return style !== undefined && HIDDEN_STYLE.test(style);
}
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;


function prior(el: HTMLElement): number {
  const tag = tagOf(el);
  const byTag = DIV_LIKE.has(tag) ? 5 : tag === 'pre' || tag === 'td' || tag === 'blockquote' ? 3
    : ['address', 'ol', 'ul', 'dl', 'dd', 'dt', 'li', 'form'].includes(tag) ? -3
    : ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'th'].includes(tag) ? -5 : 0;
  return byTag + classWeight(el);
}

function classWeight(el: HTMLElement): number {
  let w = 0;
  for (const [v, kind] of [[el.getAttribute('class'), 'class'], [el.getAttribute('id'), 'id']] as const) {
    if (!v) continue;
    const c = cues(v, kind);
    if (c.negative) w -= 25;
    if (c.positive) w += 25;
  }
  return w;
}

/**
 * Elements outside boilerplate whose text is scored: SCORED tags and divs with no block child
 * (prose written in divs) are paragraphs `whole`; other div-like elements and cells only for the
 * loose text they hold themselves.
 */
function paragraphs(root: Dom, boilerplate: Boilerplate): { el: HTMLElement; whole: boolean }[] {
  const out: { el: HTMLElement; whole: boolean }[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (n !== root && boilerplate(n)) continue;
    const tag = tagOf(n);
    if (SCORED.has(tag) || (tag === 'div' && !n.childNodes.some((c) => isElement(c) && BLOCK_CHILD.has(tagOf(c))))) out.push({ el: n, whole: true });
    else if (DIV_LIKE.has(tag) || tag === 'td') out.push({ el: n, whole: false });
    const kids = n.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}

/**
 * The runs of text an element holds itself, as a browser lays them out: text and inline elements
 * run on, and a block child or a blank line (two `<br>` with no text between) ends a run.
 */
function looseRuns(el: HTMLElement, measure: Measures): { length: number; commas: number }[] {
  const out: { length: number; commas: number }[] = [];
  let run = empty();
  let breaks = 0;
  const flush = () => {
    if (!run.blank) out.push({ length: run.core, commas: run.commas });
    run = empty();
  };
  for (const k of el.childNodes) {
    if (k instanceof TextNode) {
      const m = measureText(k.text);
      if (!m.blank) breaks = 0;
      append(run, m);
    } else if (isElement(k)) {
      const tag = tagOf(k);
      if (tag === 'br') {
        if (++breaks === 2) flush();
        else append(run, empty(true));
      } else if (INLINE_TAGS.has(tag)) {
        const m = measure.raw(k);
        if (!m.blank) breaks = 0;
        append(run, m);
      } else {
        flush();
        breaks = 0;
      }
    }
  }
  flush();
  return out;
}

/**
 * A div that holds one paragraph and no other text (an intro, a standfirst in a wrapper of its own)
 * is that paragraph, as Readability reads it.
 */
function wrapsOneParagraph(el: HTMLElement): boolean {
  if (!DIV_LIKE.has(tagOf(el))) return false;
  let p = 0;
  for (const k of el.childNodes) {
    if (isElement(k)) {
      if (tagOf(k) !== 'p' || ++p > 1) return false;
    } else if (k instanceof TextNode && k.text.trim() !== '') return false;
  }
  return p === 1;
}

function innerText(el: HTMLElement): string {
  return el.text.replace(/\s+/g, ' ').trim();
}

/** A piece of text as innerText would measure it: its length with whitespace runs as one space, trimmed, and what it starts and ends with. */
interface Measure {
  /** No character but whitespace (or none at all). */
  blank: boolean;
  /** Any whitespace, for a blank piece. */
  space: boolean;
  /** Length from the first to the last character that is not whitespace, each run of whitespace counted once. */
  core: number;
  lead: boolean;
  trail: boolean;
  commas: number;
  /** Characters that are not whitespace, and those of them inside links: the piece's link density. */
  chars: number;
  linked: number;
}

const empty = (space = false): Measure => ({ blank: true, space, core: 0, lead: false, trail: false, commas: 0, chars: 0, linked: 0 });

/** What \s matches, by code unit. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && (c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279));
}

/** One scan, no string made: this runs for every text node of every page. */
function measureText(t: string): Measure {
  let core = 0;
  let chars = 0;
  let commas = 0;
  let pendingSpace = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (isSpace(c)) {
      pendingSpace = core > 0;
      continue;
    }
    if (pendingSpace) core++;
    pendingSpace = false;
    core++;
    chars++;
    if (c === 44 || c === 0xff0c || c === 0x3001) commas++;
  }
  if (core === 0) return empty(t.length > 0);
  return { blank: false, space: true, core, lead: isSpace(t.charCodeAt(0)), trail: isSpace(t.charCodeAt(t.length - 1)), commas, chars, linked: 0 };
}

/**
 * Extends `a` by the piece `b` that follows it, in place: the measures of a page are folded child
 * by child, and a new object for each step was a good part of the page's garbage.
 */
function append(a: Measure, b: Measure): void {
  if (b.blank) {
    if (a.blank) a.space ||= b.space;
    else a.trail ||= b.space;
  } else if (a.blank) {
    const lead = b.lead || a.space;
    Object.assign(a, b);
    a.lead = lead;
  } else {
    a.core += b.core + (a.trail || b.lead ? 1 : 0);
    a.trail = b.trail;
    a.commas += b.commas;
    a.chars += b.chars;
    a.linked += b.linked;
  }
}

/** The elements under `root` (itself included), each before its descendants, without recursion. */
function elementsInOrder(root: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  const stack: HTMLElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    out.push(el);
    const kids = el.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) if (isElement(kids[i]!)) stack.push(kids[i] as HTMLElement);
  }
  return out;
}

/**
 * innerText's length and commas, and the share of it in links, for every element, in one walk from
 * the leaves up. Asking each candidate for its text read its whole subtree again: on a page of
 * nested quotations or cells that is the depth times the page, 100,000 elements under 512 levels
 * took ten seconds; scoring asks for the link density of each candidate and its ancestors too.
 */
interface Measures {
  (el: HTMLElement): { length: number; commas: number };
  raw(el: HTMLElement): Measure;
  linkDensity(el: HTMLElement): number;
}
function textMeasures(root: Dom): Measures {
  const measures = new Map<HTMLElement, Measure>();
  const order = elementsInOrder(root);
  // Backwards, an element comes after all of its descendants.
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    // The parser reads a <br> as a line break, whatever it holds.
    const m = tagOf(el) === 'br' ? empty(true) : empty();
    if (tagOf(el) !== 'br') {
      for (const k of el.childNodes) {
        if (k instanceof TextNode) append(m, measureText(k.text));
        else if (isElement(k)) append(m, measures.get(k)!);
      }
    }
    if (tagOf(el) === 'a') m.linked = m.chars;
    measures.set(el, m);
  }
  const none = empty();
  const measure = (el: HTMLElement) => {
    const m = measures.get(el) ?? none;
    return { length: m.blank ? 0 : m.core, commas: m.commas };
  };
  const linkDensity = (el: HTMLElement) => {
    const m = measures.get(el);
    return m === undefined || m.chars === 0 ? 0 : m.linked / m.chars;
  };
  return Object.assign(measure, { raw: (el: HTMLElement) => measures.get(el) ?? none, linkDensity });
}
