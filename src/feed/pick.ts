import { ORIGINS, type Origin, type Store, type StoredNode } from '../store/store.js';
import { stem } from '../text/stem.js';

/**
 * The engine's adaptation step (thesis 5.2): the word a reader clicked is stemmed, and one node
 * linked to that stem replaces the current one. The origin is drawn first, crawler with
 * probability `proportion`, so the mix holds whatever the two pools' sizes; within the origin
 * every node is equally likely. When one origin has no node for the stem the other is used.
 */
export interface PickOptions {
  /** proportion_of_crawler_node, 0 to 1. */
  proportion: number;
  /** Uniform in [0, 1), e.g. seedrandom(seed). */
  rng: () => number;
  /** Draw also the nodes whose source page is gone (anwc maintain --nodes). */
  withGone?: boolean;
}

export interface PickedNode extends StoredNode {
  stem: string;
  /** True when the drawn origin had no node for the stem and the other origin gave one. */
  fallback: boolean;
}

/** Nodes may be deleted between the count and the fetch (a re-import); a few tries are plenty. */
const ATTEMPTS = 3;

export async function pickNode(store: Store, word: string, opts: PickOptions): Promise<PickedNode | undefined> {
  const s = stem(word.trim());
  const draw = { withGone: opts.withGone ?? false };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const counts = await store.countNodesOfStem(s, draw);
    if (counts.author + counts.crawler === 0) return undefined;
    const drawn: Origin = opts.rng() < opts.proportion ? 'crawler' : 'author';
    const origin = counts[drawn] > 0 ? drawn : other(drawn);
    const node = await store.nodeOfStemAt(s, origin, Math.floor(opts.rng() * counts[origin]), draw);
    if (node) return { ...node, stem: s, fallback: origin !== drawn };
  }
  return undefined;
}

function other(o: Origin): Origin {
  return ORIGINS.find((x) => x !== o)!;
}
