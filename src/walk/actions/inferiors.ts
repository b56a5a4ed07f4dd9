import type { PageLink } from '../../html/index.js';
import type { PageView, RuntimeAction } from './action.js';

/**
 * The walking actions of appendix B: without one of them a walk visits its roots and stops there
 * ("walk-inferiors reinvokes the interpreter on the current URI to explore the next level").
 * Meta robots nofollow and rel=nofollow are honoured here, as in the harvest.
 */

function followable(v: PageView): PageLink[] {
  const found = v.links();
  if (found.robots.nofollow) return [];
  const links = found.links.filter((l) => !l.nofollow);
  return found.refresh ? [...links, { url: found.refresh, nofollow: false, tag: 'meta', anchorText: '' }] : links;
}

export const walkInferiors = (): RuntimeAction => ({
  name: 'walk-inferiors',
  run: (v, out) => {
    for (const l of followable(v)) out.follow.push({ url: l.url });
  },
});

/**
 * Orderings `walk-sorted-inferiors` knows: each gives a link a priority, higher walked first
 * within its host (the frontier keeps the order; other hosts keep their own).
 */
export const ORDERINGS: Record<string, (l: PageLink, i: number, all: PageLink[]) => number> = {
  /** The order of the page, as walk-inferiors. */
  document: (_l, i, all) => all.length - i,
  /** By URL, A to Z. */
  alphabetical: (l, _i, all) => -rankOf(all.map((x) => x.url).sort(), l.url),
  /** Shortest path first: the upper levels of a site before its depths. */
  'shallow-first': (l) => -new URL(l.url).pathname.split('/').length,
  /** Links with anchor text before bare ones (images, empty anchors). */
  'described-first': (l) => (l.anchorText.trim() ? 1 : 0),
};

function rankOf(sorted: string[], url: string): number {
  return sorted.indexOf(url);
}

/**
 * What `walk-sorted-inferiors` sorts by: an ordering's name; `(:search "word" …)`, the links whose
 * URL or anchor text hold more of the words first (each word counted once, case ignored; ties in
 * page order); or a predicate over two links that is true when the first goes first (the paper's
 * stable-sort). A predicate that throws on a pair gives no preference, so those keep page order.
 */
export type Ordering =
  | { name: string }
  | { search: readonly string[] }
  | { before: (a: PageLink, b: PageLink) => boolean; shown: string };

export function walkSortedInferiors(o: Ordering): RuntimeAction {
  const key = 'name' in o ? namedKey(o.name) : 'search' in o ? searchKey(o.search) : beforeKey(o.before);
  const shown = 'name' in o ? o.name : 'search' in o ? `(:search ${o.search.map((w) => JSON.stringify(w)).join(' ')})` : o.shown;
  return {
    name: `walk-sorted-inferiors ${shown}`,
    run: (v, out) => {
      const links = followable(v);
      const priorities = key(links);
      links.forEach((l, i) => out.follow.push({ url: l.url, priority: priorities[i]! }));
    },
  };
}

type Key = (links: PageLink[]) => number[];

function namedKey(name: string): Key {
  const key = ORDERINGS[name.toLowerCase()];
  if (!key) throw new RangeError(`unknown ordering ${name}; known: ${Object.keys(ORDERINGS).join(', ')}`);
  return (links) => links.map((l, i) => key(l, i, links));
}

function searchKey(words: readonly string[]): Key {
  const want = [...new Set(words.map((w) => w.toLowerCase()))];
  const text = (l: PageLink) => `${safeDecode(l.url)} ${l.anchorText}`.toLowerCase();
  // Page order breaks ties: a link's place counts for less than one word.
  return (links) => links.map((l, i) => {
    const t = text(l);
    return want.filter((w) => t.includes(w)).length * (links.length + 1) + (links.length - i);
  });
}

function beforeKey(before: (a: PageLink, b: PageLink) => boolean): Key {
  const first = (a: PageLink, b: PageLink): boolean => {
    try {
      return before(a, b);
    } catch {
      return false;
    }
  };
  return (links) => {
    const order = links.map((_, i) => i).sort((i, j) => (first(links[i]!, links[j]!) ? -1 : first(links[j]!, links[i]!) ? 1 : 0));
    const priority = new Array<number>(links.length);
    order.forEach((linkIndex, rank) => (priority[linkIndex] = links.length - rank));
    return priority;
  };
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

export { followable };
