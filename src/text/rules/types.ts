/**
 * The vocabulary shared by the five content rules of thesis 3.2.3. A rule is a small named
 * predicate over one prepared block: it returns nothing to accept, or a human-readable reason
 * to reject (a dropped block always keeps the name of the rule that dropped it and why).
 */

/** In the thesis's order. */
export const RULE_NAMES = [
  'min-words',
  'max-length',
  'forbidden-chars',
  'capitalization',
  'stop-word-ratio',
] as const;

export type RuleName = (typeof RULE_NAMES)[number];

export interface HeuristicOptions {
  /**
   * Rule 1, `min-words`: a block needs MORE than this many words ("more than ten keywords").
   * Numbers count as words. Default 10.
   */
  minWords: number;
  /**
   * Rule 2, `max-length`: a block needs FEWER than this many characters (Unicode code points of
   * the normalized text), "smaller than 8000 characters due to the size of display screen".
   * Default 8000.
   */
  maxChars: number;
  /**
   * Rule 3, `forbidden-chars`: any of these characters rejects the block ("special characters
   * such as sharps, brackets, and etc."; formulas, broken markup, price lists). Default:
   * `# [ ] { } < > | \ ^ ~ \` = * _ @ $ % € £ ¥ ¢ © ® ™ •`, U+FFFD (a decoding failure), and the
   * C0 and C1 control characters (C1 controls are what windows-1252 text decoded as Latin-1
   * leaves behind). Prose punctuation stays allowed: `. , ; : ! ? ' " ’ ‘ “ ” « » ( ) - – — … / &`
   * and `+`. Round parentheses are allowed although the thesis says "brackets": narrative uses
   * them (the first paragraph of The Time Machine has two pairs), while square, curly and angle
   * brackets mark citations, formulas and leaked markup. `© ® ™ •` are additions: they are the
   * signature of copyright lines, advertising copy and menu separators, the noise rule 4 aims at.
   */
  forbiddenChars: string;
  /**
   * Rule 5, `stop-word-ratio`: stop words / words must be at least this share. Default 0.20
   * ("the current engine checks for that 20% of the content are stop words").
   */
  minStopWordRatio: number;
  /** The stop words of rule 5, as tokenize() keys. Default: the thesis's Appendix A list. */
  stopWords: ReadonlySet<string>;
  /** Rules to skip; every other rule runs. Default none. */
  disabled: readonly RuleName[];
}

/** One block as every rule sees it: normalized once, segmented once. */
export interface PreparedBlock {
  /** normalizeText() of the input. */
  readonly text: string;
  /** Unicode code points in `text`. */
  readonly chars: number;
  /** Words as written (case kept). */
  readonly words: readonly string[];
  /** How many of `words` are stop words. */
  readonly stopWords: number;
}

export interface Rule {
  readonly name: RuleName;
  /** undefined accepts; a string rejects and says why, e.g. "9 words, needs more than 10". */
  check(block: PreparedBlock, options: HeuristicOptions): string | undefined;
}

/** 8000 → "8,000": figures in reasons read like prose. */
export function figure(n: number): string {
  return n.toLocaleString('en-US');
}

/** How a character is named in a reason: quoted when printable, always with its code point. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{C}\p{Z}]$/u.test(ch) ? code : `"${ch}" (${code})`;
}
