import porter from 'porter-stemmer';

/**
 * Stems already made, by the word as given. A page's words are mostly words met before, and the
 * stemmer's suffix rules cost some 1.4 µs a word where a look-up costs 0.05 (Time Machine's
 * 33,000 words; a topic-scored harvest stems every word of every kept block). Emptied when full:
 * a harvest's vocabulary outgrows any bound in the end, and the words that come back refill it.
 */
const STEMS = new Map<string, string>();
const STEMS_KEPT = 20_000;

/**
 * Porter (1980) stem of one word, as the thesis's Appendix B describes. The word is lowercased
 * first because the reference vocabulary is lowercase and meta words arrive in any case.
 */
export function stem(word: string): string {
  let out = STEMS.get(word);
  if (out === undefined) {
    out = porter.stemmer(word.toLowerCase());
    if (STEMS.size >= STEMS_KEPT) STEMS.clear();
    STEMS.set(word, out);
  }
  return out;
}
