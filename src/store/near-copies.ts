import { jaccardIfNear, NEAR_COPY, shingleSet, type Shingles } from '../text/minhash.js';
import { words } from '../text/tokenize.js';
import { sha256 } from './hash.js';
import type { NearCandidate, NodeInput } from './store.js';

/**
 * Marks the near-copies among a page's new nodes (issue: a footer, a disclaimer or a licence line
 * that passes the rules on every page of a site; a story syndicated to a mirror). A node whose
 * shingles are at least NEAR_COPY alike with a stored crawler node's becomes a link to that node
 * (`copyOf`), and one alike with an earlier node of the same page is dropped. The same text is not
 * a near-copy: the store already keeps one node per text and records the repeat.
 *
 * The store decides it in the page's own transaction (completePage), so a page sees the nodes of
 * every page stored before it, those committed with it in one group too. Deciding it on the
 * crawler's side took a call and its answer a page (the candidates with their shingles, 5.5 kB)
 * between the store's thread and the main one, and let two pages in flight keep a copy each.
 */
export function withNearCopies(nodes: NodeInput[], search: (signatures: number[][], limit: number) => NearCandidate[][]): NodeInput[] {
  if (!searches(nodes)) return nodes;
  const found = search(nodes.map((n) => (searched(n) ? n.bands! : [])), CANDIDATES);
  return nearCopies(nodes, found);
}

/** withNearCopies for a store whose search waits on its server. */
export async function withNearCopiesAsync(
  nodes: NodeInput[], search: (signatures: number[][], limit: number) => Promise<NearCandidate[][]>,
): Promise<NodeInput[]> {
  if (!searches(nodes)) return nodes;
  const found = await search(nodes.map((n) => (searched(n) ? n.bands! : [])), CANDIDATES);
  return withNearCopies(nodes, () => found);
}

/** Whether any of the nodes is looked for among the stored ones. */
export const searches = (nodes: NodeInput[]): boolean => nodes.some(searched);

/** A node with band keys that its caller did not already link to the node it copies. */
const searched = (n: NodeInput): boolean => !n.copyOf && n.bands !== undefined && n.bands.length > 0;

/**
 * The stored nodes a new one is compared with: those sharing most band keys with it. A near-copy
 * (Jaccard 0.7) shares about four of the sixteen; a paragraph built of common sentences may share
 * one or two with hundreds, and comparing it with all of them made a page's cost grow with the store.
 */
const CANDIDATES = 8;

/**
 * The decision, given each node's stored candidates (stored[i] for nodes[i]) with their shingles.
 * A candidate of the node's very text is not a near-copy; its hash is compared only with those
 * alike enough to be one, few on most pages.
 */
export function nearCopies(nodes: NodeInput[], stored: NearCandidate[][]): NodeInput[] {
  const kept: { text: string; shingles: Shingles }[] = [];
  const out: NodeInput[] = [];
  nodes.forEach((n, i) => {
    if (n.copyOf) {
      out.push(n);
      return;
    }
    const own = n.shingles ?? shingleSet(words(n.text));
    if (kept.some((k) => k.text !== n.text && jaccardIfNear(own, k.shingles) >= NEAR_COPY)) return;
    let best: { id: number; similarity: number } | undefined;
    let hash: string | undefined;
    for (const c of stored[i] ?? []) {
      const similarity = jaccardIfNear(own, c.shingles);
      if (similarity < NEAR_COPY || similarity <= (best?.similarity ?? 0)) continue;
      if (c.textHash === (hash ??= sha256(n.text))) continue;
      best = { id: c.id, similarity };
    }
    kept.push({ text: n.text, shingles: own });
    out.push(best ? { ...n, copyOf: best } : n);
  });
  return out;
}
