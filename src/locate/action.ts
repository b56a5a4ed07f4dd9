import type { RuntimeAction } from '../walk/actions/action.js';
import { followable } from '../walk/actions/inferiors.js';
import { pathWords } from '../walk/actions/salton.js';
import { docStats, salton, type DocStats, type Query } from './score.js';

/**
 * The locator's action: score the page, keep what the ranking needs, and hand its links to the
 * frontier in the order the search asks for. The frontier leases a host's highest priority first.
 *
 * - `global`: best-first over the whole frontier (the paper's future work): a link's priority is
 *   the score of its branch, the page's own score plus what its anchor text and URL promise.
 * - `local`: the paper's local sort: depth-first, the links of the page just read tried first,
 *   best first among themselves. Each read page's links outrank every older link (a stack of
 *   sorted lists), so the walk goes down the best branch before it looks at siblings.
 * - `bfs`: breadth first, links in page order, for comparison.
 */

export type SearchMode = 'local' | 'global' | 'bfs';
export const SEARCH_MODES: readonly SearchMode[] = ['local', 'global', 'bfs'];

export interface ScoredPage {
  url: string;
  title: string;
  depth: number;
  /** 1 for the first page the walk scored, 2 for the next… */
  order: number;
  stats: DocStats;
  salton: number;
}

export function locatePage(q: Query, mode: SearchMode, collect: (p: ScoredPage) => void): RuntimeAction {
  let order = 0;
  let lastStack = 0;
  return {
    name: `locate (${mode})`,
    run: (v, out) => {
      const stats = docStats(v.text(), q);
      const score = salton(stats, q);
      out.notes.score = score;
      collect({ url: v.page.url, title: v.title(), depth: v.link.depth, order: ++order, stats, salton: score });
      const links = followable(v);
      if (mode === 'bfs') {
        for (const l of links) out.follow.push({ url: l.url });
        return;
      }
      const promise = links.map((l) => salton(docStats(`${l.anchorText} ${pathWords(l.url)}`, q), q));
      if (mode === 'global') {
        links.forEach((l, i) => out.follow.push({ url: l.url, priority: score + promise[i]! }));
        return;
      }
      // Priorities above any given before: this page's list goes on top of the stack.
      const top = (lastStack = Math.max(Date.now(), lastStack + 1));
      const ranked = links.map((l, i) => ({ l, p: promise[i]!, i })).sort((a, b) => b.p - a.p || a.i - b.i);
      ranked.forEach((r, rank) => out.follow.push({ url: r.l.url, priority: top + (ranked.length - rank) / (ranked.length + 1) }));
    },
  };
}
