import { figure, type Rule } from './types.js';

/**
 * Thesis rule 5: menus, price lists and advertising copy are strings of nouns, adjectives,
 * symbols and numbers; English sentences cannot avoid articles, prepositions and forms of "be".
 * Foreign-language text fails here too, as the thesis intends. A block with no words has ratio 0.
 */
export const stopWordRatioRule: Rule = {
  name: 'stop-word-ratio',
  check(block, { minStopWordRatio }) {
    const total = block.words.length;
    const ratio = total === 0 ? 0 : block.stopWords / total;
    if (ratio >= minStopWordRatio) return undefined;
    return (
      `${figure(block.stopWords)} of ${figure(total)} words are stop words (${percent(ratio)}), ` +
      `needs at least ${percent(minStopWordRatio)}`
    );
  },
};

/**
 * 0.2 → "20%", 0.1523 → "15.2%". Rounded down (the epsilon only absorbs float noise), so a
 * rejected 0.1999 reads "19.9%", never "20%" next to "needs at least 20%".
 */
function percent(share: number): string {
  const p = Math.floor(share * 1000 + 1e-9) / 10;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
}
