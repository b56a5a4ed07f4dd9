import { figure, type Rule } from './types.js';

/** Thesis rule 1: "the number of keywords in the narrative node must be more than ten". */
export const minWordsRule: Rule = {
  name: 'min-words',
  check(block, { minWords }) {
    const n = block.words.length;
    if (n > minWords) return undefined;
    return `${figure(n)} word${n === 1 ? '' : 's'}, needs more than ${figure(minWords)}`;
  },
};
