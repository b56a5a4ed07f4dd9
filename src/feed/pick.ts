import { ORIGINS, type Origin, type Store, type StoredNode } from '../store/store.js';
import { stem } from '../text/stem.js';

/**
 * The engine's adaptation step (thesis 5.2): the word a reader clicked is stemmed, and one node
 * linked to that stem replaces the current one. The origin is drawn first, crawler with
 * probability `proportion`, so the mix holds whatever the two pools' sizes; within the origin a
 * node is drawn in proportion to the weight of its link to the stem (how much of a crawler node
 * speaks of the word; an author's links weigh 1 each). When one origin has no node for the stem
 * the other is used.
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
    const id = drawWeighted(await store.weightsOfStem(s, origin, draw), opts.rng());
    const node = id === undefined ? undefined : await store.node(id);
    if (node) return { ...node, stem: s, fallback: origin !== drawn };
  }
  return undefined;
}

/** The item whose share of the total weight holds `u` (uniform in [0, 1)). */
export function drawWeighted(items: readonly { id: number; weight: number }[], u: number): number | undefined {
  const total = items.reduce((a, x) => a + Math.max(0, x.weight), 0);
  if (total <= 0) return items[Math.floor(u * items.length)]?.id;
  let left = u * total;
  for (const x of items) {
    left -= Math.max(0, x.weight);
    if (left < 0) return x.id;
  }
  return items[items.length - 1]?.id;
}

function other(o: Origin): Origin {
  return ORIGINS.find((x) => x !== o)!;
}
