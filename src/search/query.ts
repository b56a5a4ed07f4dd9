/**
 * Queries as the thesis forms them (section 3.2.1): one query per distinct meta set of the
 * author's nodes, its words ANDed, S = t1 ∩ … ∩ tn. Google, Brave, SearXNG and Wikipedia's
 * CirrusSearch all read space-separated terms as AND and a double-quoted term as a phrase, so
 * one syntax serves every provider.
 */

/** Trims, collapses inner spaces and drops repeated words (case-insensitively), keeping order. */
/** A meta word as sets compare it: spacing collapsed, case folded. */
export function wordKey(word: string): string {
  return word.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function normalizeMetaSet(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of words) {
    const w = raw.trim().replace(/\s+/g, ' ');
    if (!w) continue;
    const k = wordKey(w);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(w);
  }
  return out;
}

/** The identity of a meta set: the same words in any order or case are the same query. */
export function metaSetKey(words: readonly string[]): string {
  return normalizeMetaSet(words)
    .map((w) => w.toLowerCase())
    .sort()
    .join('\u001f');
}

/**
 * The query text for the words: space-separated (AND); a multi-word meta word is quoted so it is
 * read as a phrase. Characters the engines read as operators are neutralised, because a meta
 * word is content, never syntax: inner quotes go, a leading - or + (exclude/require) goes, and a
 * bare OR/AND/NOT is quoted so it is not taken for the boolean operator.
 */
export function queryText(words: readonly string[]): string {
  return normalizeMetaSet(words)
    .map((w) => w.replace(/"/g, '').replace(/^[-+~]+/, '').trim())
    .filter((w) => w.length > 0)
    .map((w) => (/\s/.test(w) || /^(OR|AND|NOT)$/.test(w) ? `"${w}"` : w))
    .join(' ');
}

/**
 * How an AND query is widened when it returns fewer URLs than asked.
 *
 * Rule: drop one word at a time, each time the word that the fewest of the story's meta sets
 * hold (ties: the word given last; seeding gives them in the order they entered the story),
 * and ask again with the rest, until the meta set
 * has its URLs or one word is left. So a six-word node costs at most five extra queries, not
 * the 2^6 of every subset nor the six of every word alone, and each step stays as narrow as it
 * can. The words many nodes share are the story's theme: pages about them blend with the most
 * nodes (3.2.1: "choose initial search terms that can be blended well with the existing
 * context"), so they are kept longest; a word only this node uses is the most particular and
 * gives way first. Each widened query is stored as its own query, tied to the words it asked:
 * its pages seed the node whose words they only partly matched, and answer for those words only.
 *
 * `weight(word)` is how many meta sets hold the word. Returns the widened word lists in order,
 * the original excluded.
 */
export function widenings(words: readonly string[], weight: (word: string) => number): string[][] {
  let current = normalizeMetaSet(words);
  const out: string[][] = [];
  while (current.length > 1) {
    let drop = current.length - 1;
    for (let i = current.length - 2; i >= 0; i--) {
      if (weight(current[i]!) < weight(current[drop]!)) drop = i;
    }
    current = current.filter((_, i) => i !== drop);
    out.push(current);
  }
  return out;
}

/** How many of the given meta sets hold each word (case-insensitively). */
export function wordWeights(sets: readonly (readonly string[])[]): (word: string) => number {
  const counts = new Map<string, number>();
  for (const set of sets) {
    for (const w of normalizeMetaSet(set)) {
      const k = w.toLowerCase();
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return (word) => counts.get(word.trim().toLowerCase()) ?? 0;
}
