import { contentStems } from './relevance.js';
import { DEFAULT_STOP_WORDS } from './stopwords.js';

/*
 * A topic profile per meta word, learned from the author (issue 33): what the author wrote under a
 * meta word says what the word is about, so a paragraph that never says "lighthouse" but speaks of
 * the lamp, the keeper and the gallery can still be drawn for it.
 *
 * Weighting is SMART's lnc.ltc (Salton and Buckley 1988), the query side being the profile:
 *
 *   profile(m)[t] = (1 + ln tf(t, A_m)) · idf(t)      normalised to length 1
 *   node[t]       = (1 + ln tf(t, d))                 normalised to length 1
 *   idf(t)        = ln((N + 1) / (df(t) + 1))
 *
 * where A_m is the text of the author nodes carrying m with the words around it in the markup
 * (the node's other meta words, counted CONTEXT_TF times each, and its section's name), t a Porter
 * stem of a word that is not a stop word, N the documents of the store's text the frequencies
 * were counted over and df(t) how many of them hold t. The meta word's own stems are left out of
 * the profile: they are the literal evidence, weighed apart and strongest.
 *
 *   relevance(d, m) = min(1, literal(d, m) + cos(node(d), profile(m)))
 *
 * literal is LITERAL_TEXT when d's stems hold m's (all of a phrase's, in a row), LITERAL_HEADING
 * when only its page's title or headings do, else 0. The word in the text passes TOPIC_THRESHOLD
 * alone; in the headings only (a site's name in its banner is on every page) it needs one anchor
 * shared too; without the word, MIN_CONTEXT_TERMS profile terms, an anchor among them.
 */

/** A node is linked to a meta word whose relevance reaches this. */
export const TOPIC_THRESHOLD = 0.12;
/** The meta word itself in the node's text: the strongest evidence, enough alone. */
export const LITERAL_TEXT = 0.5;
/** The meta word only in the page's title or headings: half a mention, enough with an anchor shared. */
export const LITERAL_HEADING = 0.25;
/** A co-occurring meta word counts as this many occurrences in the profile's text. */
export const CONTEXT_TF = 2;
/**
 * A node that does not say the meta word is linked by its profile only when it shares this many of
 * the profile's terms, one of them an anchor (a word the author put around the meta word in the
 * markup): a few common words in common are chance, not a topic.
 */
export const MIN_CONTEXT_TERMS = 3;
/** Terms a profile keeps, highest weight first. */
export const PROFILE_TERMS = 64;
/** Matched terms an evidence lists. */
const EVIDENCE_TERMS = 8;

/** One author node as a profile reads it. */
export interface ProfileSource {
  text: string;
  /** The node's meta words. */
  meta: readonly MetaTerm[];
  /** Words around the node in the markup besides its meta words (its section's name). */
  context?: readonly string[];
}

/** A meta word as written and as stored (its Porter stem, the engine's key). */
export interface MetaTerm {
  word: string;
  stem: string;
}

export interface CorpusStats {
  /** Documents counted. */
  docs: number;
  /** Documents holding each stem. */
  df: ReadonlyMap<string, number>;
}

export interface TopicProfile extends MetaTerm {
  /** The content stems of the meta word itself, in order ("baker street" → baker, street). */
  literal: string[];
  /** Term → weight, unit length, at most PROFILE_TERMS terms. */
  terms: Record<string, number>;
  /** The terms that are words around the meta word in the markup: its fellow meta words, its section's name. */
  anchors: string[];
  /** Author nodes it was learned from. */
  sources: number;
}

export interface TopicEvidence {
  /** relevance(d, m) above, rounded to 4 places. */
  score: number;
  /** Where the meta word itself was found. */
  literal: 'text' | 'heading' | null;
  /** The cosine with the profile, rounded to 4 places. */
  similarity: number;
  /** The profile terms the node shares, largest share of the cosine first (at most EVIDENCE_TERMS). */
  terms: string[];
  /** How many profile terms the node shares. */
  matched: number;
  /** The relevance passes TOPIC_THRESHOLD on evidence enough: the word in the text; in the headings with an anchor; or MIN_CONTEXT_TERMS terms with an anchor. */
  linked: boolean;
}

/** Document frequencies of stems over texts already reduced to content stems. */
export function corpusStats(docs: Iterable<readonly string[]>): CorpusStats {
  const df = new Map<string, number>();
  let n = 0;
  for (const d of docs) {
    n++;
    for (const s of new Set(d)) df.set(s, (df.get(s) ?? 0) + 1);
  }
  return { docs: n, df };
}

export function idf(stats: CorpusStats, term: string): number {
  return Math.log((stats.docs + 1) / ((stats.df.get(term) ?? 0) + 1));
}

/**
 * The meta word's own stems as a node's stems would hold them: its stem, or for a phrase ("Baker
 * Street") each of its words stemmed, stop words out.
 */
export function literalStems(meta: MetaTerm, stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS): string[] {
  if (!/\s/.test(meta.word.trim())) return [meta.stem];
  const stems = contentStems(meta.word, stopWords);
  return stems.length > 0 ? stems : [meta.stem];
}

/**
 * The profile of each meta stem, learned from the author nodes that carry it. A stem no source
 * carries gets a profile with no terms: only its literal evidence links to it.
 */
export function buildProfiles(
  metaWords: readonly MetaTerm[], sources: readonly ProfileSource[], stats: CorpusStats,
  stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS,
): TopicProfile[] {
  const stemmed = sources.map((s) => ({
    text: contentStems(s.text, stopWords),
    meta: s.meta.map((m) => literalStems(m, stopWords)),
    metaStems: s.meta.map((m) => m.stem),
    context: (s.context ?? []).flatMap((c) => contentStems(c, stopWords)),
  }));
  return metaWords.map(({ word, stem }) => {
    const literal = literalStems({ word, stem }, stopWords);
    const own = new Set(literal);
    const tf = new Map<string, number>();
    const anchors = new Set<string>();
    const add = (t: string, n: number) => {
      if (!own.has(t)) tf.set(t, (tf.get(t) ?? 0) + n);
    };
    let count = 0;
    for (const s of stemmed) {
      if (!s.metaStems.includes(stem)) continue;
      count++;
      for (const t of s.text) add(t, 1);
      s.meta.forEach((m, i) => {
        if (s.metaStems[i] !== stem) for (const t of m) (add(t, CONTEXT_TF), anchors.add(t));
      });
      for (const t of s.context) (add(t, 1), anchors.add(t));
    }
    const weighted = [...tf].map(([t, n]) => [t, (1 + Math.log(n)) * idf(stats, t)] as const)
      .filter(([, w]) => w > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, PROFILE_TERMS);
    const norm = Math.sqrt(weighted.reduce((a, [, w]) => a + w * w, 0));
    const terms: Record<string, number> = {};
    if (norm > 0) for (const [t, w] of weighted) terms[t] = round(w / norm, 6);
    return { word, stem, literal, terms, anchors: [...anchors].filter((t) => Object.hasOwn(terms, t)).sort(), sources: count };
  });
}

/** A node's stems as the cosine reads them: 1 + ln tf, unit length. */
export function nodeVector(stems: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const s of stems) tf.set(s, (tf.get(s) ?? 0) + 1);
  const v = new Map<string, number>();
  let sq = 0;
  for (const [t, n] of tf) {
    const w = 1 + Math.log(n);
    v.set(t, w);
    sq += w * w;
  }
  const norm = Math.sqrt(sq);
  if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

/** relevance(d, m) with what it rests on; `vector` is nodeVector(stems), made once per node. */
export function topicEvidence(
  stems: readonly string[], vector: ReadonlyMap<string, number>, pageStems: ReadonlySet<string>, profile: TopicProfile,
): TopicEvidence {
  const literal = holdsPhrase(stems, profile.literal) ? 'text'
    : profile.literal.every((s) => pageStems.has(s)) ? 'heading' : null;
  // By the node's stems, a few dozen, not the profile's terms: each node is scored against every
  // meta word, at harvest and again when an import relinks the stored nodes.
  const shares: [string, number][] = [];
  let similarity = 0;
  for (const [t, x] of vector) {
    if (!Object.hasOwn(profile.terms, t)) continue;
    const share = x * profile.terms[t]!;
    similarity += share;
    shares.push([t, share]);
  }
  shares.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const base = literal === 'text' ? LITERAL_TEXT : literal === 'heading' ? LITERAL_HEADING : 0;
  const score = round(Math.min(1, base + similarity), 4);
  const anchor = shares.some(([t]) => profile.anchors.includes(t));
  const enough = literal === 'text' || (literal === 'heading' && anchor) || (anchor && shares.length >= MIN_CONTEXT_TERMS);
  return {
    score,
    literal,
    similarity: round(similarity, 4),
    terms: shares.slice(0, EVIDENCE_TERMS).map(([t]) => t),
    matched: shares.length,
    linked: score >= TOPIC_THRESHOLD && enough,
  };
}

/** What a link made by topicEvidence rests on, as the store keeps it. */
export type TopicLinkEvidence = Pick<TopicEvidence, 'score' | 'literal' | 'similarity' | 'terms'>;

/**
 * The meta words a node is relevant to (topicEvidence passes), each with its relevance as the
 * link's weight and what the link rests on: at harvest, and when an import links stored nodes.
 */
export function topicLinks(
  stems: readonly string[], pageStems: ReadonlySet<string>, topics: readonly { id: number; profile: TopicProfile }[],
): { id: number; weight: number; evidence: TopicLinkEvidence }[] {
  if (topics.length === 0) return [];
  const vector = nodeVector(stems);
  const out: { id: number; weight: number; evidence: TopicLinkEvidence }[] = [];
  for (const { id, profile } of topics) {
    const e = topicEvidence(stems, vector, pageStems, profile);
    if (e.linked) out.push({ id, weight: e.score, evidence: { score: e.score, literal: e.literal, similarity: e.similarity, terms: e.terms } });
  }
  return out;
}

/** True when `phrase` occurs in `stems` as consecutive items (one stem: anywhere). */
function holdsPhrase(stems: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  outer: for (let i = 0; i + phrase.length <= stems.length; i++) {
    for (let k = 0; k < phrase.length; k++) if (stems[i + k] !== phrase[k]) continue outer;
    return true;
  }
  return false;
}

function round(x: number, places: number): number {
  const f = 10 ** places;
  return Math.round(x * f) / f;
}
