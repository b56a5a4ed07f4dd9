import { describeChar, type Rule } from './types.js';

/*
 * Thesis rule 4: "the sentence must start with an uppercase character and end with a
 * termination character like a period or quotation mark" — what copyright notices, menus and
 * advertising copy fail. Typography around the sentence is looked through, not judged.
 */

/**
 * Looked through at the start: opening quotes and brackets (“ ‘ « „ ( [ …, and the ASCII " '),
 * dashes (a dialogue dash), a leading ellipsis (a sentence resumed mid-thought), and Spanish ¿ ¡.
 */
const LEADING = /^[’\p{Pi}\p{Ps}\p{Pd}"'….¿¡ ]+/u;

/** Looked through at the end: closing quotes and brackets (” ’ » ) ] …, and the ASCII " '). */
const TRAILING = /[\p{Pf}\p{Pe}"' ]+$/u;

/** Full stop, !, ?, ellipsis, interrobang, and the CJK full-width forms. */
const TERMINATORS = new Set(['.', '!', '?', '…', '‽', '。', '！', '？', '｡']);

/**
 * Starts with an uppercase (or titlecase) letter once opening punctuation is skipped. A letter
 * with no case at all (Chinese, Japanese, Arabic, Hebrew, Thai, Devanagari…) passes: the script
 * cannot satisfy the rule, and deciding whether foreign text is wanted is rule 5's job, which
 * then reports the one reason that matters. Digits and symbols do not pass: the thesis asks for
 * an uppercase character, and "© 2024 …" or "10 best …" is the noise this rule exists for.
 */
function startProblem(text: string): string | undefined {
  const rest = text.replace(LEADING, '');
  const cp = rest.codePointAt(0);
  if (cp === undefined) return 'has no letter to start with';
  const first = String.fromCodePoint(cp);
  if (/\p{Lu}|\p{Lt}/u.test(first)) return undefined;
  if (/\p{Ll}/u.test(first)) return `starts with lowercase ${describeChar(first)}`;
  if (/\p{L}/u.test(first)) return undefined;
  return `starts with ${describeChar(first)}, not an uppercase letter`;
}

/**
 * Ends with a terminator, possibly followed by closing quotes or brackets (`.”` `?’` `!)`).
 * A dash directly before a closing quote also ends a paragraph: it is interrupted speech
 * (“… is all—”), a complete utterance in fiction.
 */
function endProblem(text: string): string | undefined {
  const body = text.replace(TRAILING, '');
  const closed = body.length < text.length;
  const last = Array.from(body.slice(-2)).pop();
  if (last === undefined) return 'has no terminator to end with';
  if (TERMINATORS.has(last)) return undefined;
  if (closed && /\p{Pd}/u.test(last)) return undefined;
  return `ends with ${describeChar(last)}, needs . ! ? or … (before any closing quote or bracket)`;
}

export const capitalizationRule: Rule = {
  name: 'capitalization',
  check(block) {
    const problems = [startProblem(block.text), endProblem(block.text)].filter(
      (p): p is string => p !== undefined,
    );
    return problems.length ? problems.join('; ') : undefined;
  },
};
