import type { NodeInput, Store } from '../store/store.js';
import { jaccard, NEAR_COPY, shingleSet } from '../text/minhash.js';
import { words } from '../text/tokenize.js';

/**
 * Marks the near-copies among a page's new nodes (issue: a footer, a disclaimer or a licence line
 * that passes the rules on every page of a site; a story syndicated to a mirror). A node whose
 * shingles are at least NEAR_COPY alike with a stored crawler node's becomes a link to that node
 * (`copyOf`), and one alike with an earlier node of the same page is dropped. The same text is not
 * a near-copy: the store already keeps one node per text and records the repeat.
 *
 * The stored candidates are read before the page's transaction, so two pages in flight at once may
 * each keep their copy of a new paragraph; the next page that meets it finds both and links to the
 * closer one.
 */
export async function markCopies(store: Store, nodes: NodeInput[]): Promise<NodeInput[]> {
  const signed = nodes.filter((n) => n.bands && n.bands.length > 0);
  if (signed.length === 0) return nodes;
  const stored = (await store.nodesSharingBands(signed.map((n) => n.bands!))).map((c) => ({ ...c, shingles: shingleSet(words(c.text)) }));
  return nearCopies(nodes, stored);
}

/** markCopies' decision, given the stored candidates with their shingles. */
export function nearCopies(nodes: NodeInput[], stored: { id: number; text: string; shingles: Set<string> }[]): NodeInput[] {
  const kept: { text: string; shingles: Set<string> }[] = [];
  const out: NodeInput[] = [];
  for (const n of nodes) {
    const own = shingleSet(words(n.text));
    if (kept.some((k) => k.text !== n.text && jaccard(own, k.shingles) >= NEAR_COPY)) continue;
    let best: { id: number; similarity: number } | undefined;
    for (const c of stored) {
      if (c.text === n.text) continue;
      const similarity = jaccard(own, c.shingles);
      if (similarity >= NEAR_COPY && similarity > (best?.similarity ?? 0)) best = { id: c.id, similarity };
    }
    kept.push({ text: n.text, shingles: own });
    out.push(best ? { ...n, copyOf: best } : n);
  }
  return out;
}
