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

export function walkSortedInferiors(ordering: string): RuntimeAction {
  const key = ORDERINGS[ordering.toLowerCase()];
  if (!key) throw new RangeError(`unknown ordering ${ordering}; known: ${Object.keys(ORDERINGS).join(', ')}`);
  return {
    name: `walk-sorted-inferiors ${ordering}`,
    run: (v, out) => {
      const links = followable(v);
      links.forEach((l, i) => out.follow.push({ url: l.url, priority: key(l, i, links) }));
    },
  };
}

export { followable };
