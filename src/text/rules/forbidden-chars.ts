import { describeChar, figure, type Rule } from './types.js';

/** C0 and C1 controls and DEL; whitespace controls are already gone after normalizeText. */
function controls(): string {
  let s = '';
  for (let c = 0x00; c <= 0x1f; c++) s += String.fromCharCode(c);
  for (let c = 0x7f; c <= 0x9f; c++) s += String.fromCharCode(c);
  return s;
}

/** The default of HeuristicOptions.forbiddenChars; the reasoning is documented there. */
export const DEFAULT_FORBIDDEN_CHARS = '#[]{}<>|\\^~`=*_@$%€£¥¢©®™•\uFFFD' + controls();

/** The option is a string for config files; look-ups want a set. One entry is enough: it rarely changes. */
let memo: { chars: string; set: ReadonlySet<string> } | undefined;
function charSet(chars: string): ReadonlySet<string> {
  if (memo?.chars !== chars) memo = { chars, set: new Set(chars) };
  return memo.set;
}

/**
 * Thesis rule 3: "must not contain any special characters such as sharps, brackets". The reason
 * names the first forbidden character, its position (1-based, in code points of the normalized
 * block) and how many there are in all.
 */
export const forbiddenCharsRule: Rule = {
  name: 'forbidden-chars',
  check(block, { forbiddenChars }) {
    const forbidden = charSet(forbiddenChars);
    let first: { ch: string; at: number } | undefined;
    let count = 0;
    let at = 0;
    for (const ch of block.text) {
      at++;
      if (!forbidden.has(ch)) continue;
      count++;
      first ??= { ch, at };
    }
    if (!first) return undefined;
    const more = count > 1 ? `; ${figure(count)} forbidden characters in all` : '';
    return `forbidden character ${describeChar(first.ch)} at character ${figure(first.at)}${more}`;
  },
};
