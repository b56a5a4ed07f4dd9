import { figure, type Rule } from './types.js';

/** Thesis rule 2: "smaller than 8000 characters due to the size of display screen". */
export const maxLengthRule: Rule = {
  name: 'max-length',
  check(block, { maxChars }) {
    if (block.chars < maxChars) return undefined;
    return `${figure(block.chars)} characters, needs fewer than ${figure(maxChars)}`;
  },
};
