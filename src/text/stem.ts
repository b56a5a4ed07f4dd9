import porter from 'porter-stemmer';

/**
 * Porter (1980) stem of one word, as the thesis's Appendix B describes. The word is lowercased
 * first because the reference vocabulary is lowercase and meta words arrive in any case.
 */
export function stem(word: string): string {
  return porter.stemmer(word.toLowerCase());
}
