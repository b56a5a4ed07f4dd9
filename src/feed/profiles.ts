import type { MetaLinkInput, MetaWord, Store, StoredProfile } from '../store/store.js';
import { contentStems } from '../text/relevance.js';
import { buildProfiles, corpusStats, literalStems, topicLinks, type ProfileSource, type TopicProfile } from '../text/profile.js';

/**
 * The topic profiles of the store's meta words (text/profile.ts), learned from the author's nodes
 * and the sections they stand in, with the document frequencies counted over the store's text:
 * every author node and the first CORPUS_CRAWLER crawler nodes. Rebuilt after each import that
 * changed a file and at the start of each harvest (the store's text has grown since).
 */

/** Crawler nodes counted for the document frequencies: enough for the common words to show. */
export const CORPUS_CRAWLER = 5000;

/** A meta word's profile beside its id, as the harvest links by it. */
export interface MetaTopic {
  id: number;
  profile: TopicProfile;
}

export async function rebuildProfiles(store: Store, at = Date.now()): Promise<MetaTopic[]> {
  const words = await store.listMetaWords();
  const author = await store.nodes({ origin: 'author' });
  const crawler = await store.nodes({ origin: 'crawler', limit: CORPUS_CRAWLER });
  const sectionOf = new Map<number, string>();
  for (const file of await store.story()) {
    for (const s of file.sections) if (s.name) for (const id of s.nodeIds) sectionOf.set(id, s.name);
  }
  const sources: ProfileSource[] = author.map((n) => ({
    text: n.text,
    meta: n.metaWords,
    context: sectionOf.has(n.id) ? [sectionOf.get(n.id)!] : [],
  }));
  const stats = corpusStats([...author, ...crawler].map((n) => contentStems(n.text)));
  const built = buildProfiles(words, sources, stats);
  await store.saveProfiles(built.map((p, i) => ({ metaWordId: words[i]!.id, terms: p.terms, anchors: p.anchors, sources: p.sources })), at);
  return built.map((profile, i) => ({ id: words[i]!.id, profile }));
}

/** The stored profiles as the harvest links by them; a meta word without one has its literal only. */
export async function loadTopics(store: Store): Promise<MetaTopic[]> {
  const stored = new Map<number, StoredProfile>((await store.profiles()).map((p) => [p.metaWordId, p]));
  return (await store.listMetaWords()).map((w: MetaWord) => {
    const p = stored.get(w.id);
    return {
      id: w.id,
      profile: { word: w.word, stem: w.stem, literal: literalStems(w), terms: p?.terms ?? {}, anchors: p?.anchors ?? [], sources: p?.sources ?? 0 },
    };
  });
}

/** Crawler nodes read at a time when they are linked again. */
const RELINK_PAGE = 500;

/**
 * Links the stored crawler nodes to the meta words their text now speaks of, after the profiles
 * changed (an import that brought new meta words, or new author text under old ones): otherwise a
 * node harvested before a word existed could never be drawn by it. Only links are added: a link
 * made at harvest time may rest on the page's headings, which are not stored, so none is taken
 * away. How many nodes gained a link, and how many links; `onRead` hears how many were read so far.
 */
export async function linkStoredNodes(
  store: Store, topics: MetaTopic[], onRead?: (read: number) => void,
): Promise<{ nodes: number; links: number }> {
  let afterId = 0;
  let read = 0;
  let nodes = 0;
  let links = 0;
  if (topics.length === 0) return { nodes, links };
  for (;;) {
    const page = await store.nodes({ origin: 'crawler', afterId, limit: RELINK_PAGE });
    if (page.length === 0) return { nodes, links };
    afterId = page[page.length - 1]!.id;
    const add: MetaLinkInput[] = [];
    for (const node of page) {
      const has = new Set(node.metaWords.map((m) => m.id));
      const fresh = topics.filter((t) => !has.has(t.id));
      if (fresh.length === 0) continue;
      const found = topicLinks(contentStems(node.text), NO_HEADINGS, fresh);
      for (const l of found) add.push({ nodeId: node.id, metaWordId: l.id, weight: l.weight, evidence: l.evidence });
      if (found.length > 0) nodes++;
    }
    links += await store.addMetaLinks(add);
    read += page.length;
    onRead?.(read);
  }
}

const NO_HEADINGS: ReadonlySet<string> = new Set();
