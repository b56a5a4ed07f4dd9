import { UserError } from '../errors.js';
import { normalizeText } from './normalize.js';
import { DEFAULT_STOP_WORDS } from './stopwords.js';
import { tokenKey, words as segmentWords } from './tokenize.js';
import { capitalizationRule } from './rules/capitalization.js';
import { DEFAULT_FORBIDDEN_CHARS, forbiddenCharsRule } from './rules/forbidden-chars.js';
import { maxLengthRule } from './rules/max-length.js';
import { minWordsRule } from './rules/min-words.js';
import { stopWordRatioRule } from './rules/stop-word-ratio.js';
import { RULE_NAMES, type HeuristicOptions, type PreparedBlock, type Rule, type RuleName } from './rules/types.js';

export { RULE_NAMES, type HeuristicOptions, type RuleName } from './rules/types.js';
export { DEFAULT_FORBIDDEN_CHARS } from './rules/forbidden-chars.js';

/** The thesis's frugal heuristics (3.2.3), in its order. */
export const RULES: readonly Rule[] = [
  minWordsRule,
  maxLengthRule,
  forbiddenCharsRule,
  capitalizationRule,
  stopWordRatioRule,
];

/** The thesis's settings; see HeuristicOptions for each one's source. */
export const DEFAULT_HEURISTICS: Readonly<HeuristicOptions> = Object.freeze({
  minWords: 10,
  maxChars: 8000,
  forbiddenChars: DEFAULT_FORBIDDEN_CHARS,
  minStopWordRatio: 0.2,
  stopWords: DEFAULT_STOP_WORDS,
  disabled: Object.freeze([]) as readonly RuleName[],
});

export interface RuleRejection {
  rule: RuleName;
  /** Human-readable, e.g. "9 words, needs more than 10". */
  message: string;
}

export interface BlockStats {
  /** Unicode code points of the normalized text. */
  chars: number;
  words: number;
  stopWords: number;
  /** stopWords / words; 0 for a block without words. */
  stopWordRatio: number;
}

export interface BlockVerdict {
  /** True when no enabled rule rejected the block. */
  accepted: boolean;
  /** One entry per rejecting rule, in RULE_NAMES order; empty when accepted. */
  reasons: RuleRejection[];
  stats: BlockStats;
  /** The block as the rules judged it: normalizeText() of the input, the form worth storing. */
  text: string;
  /** Its words, case kept (words() of text), so a caller scoring the block need not split it again. */
  words: readonly string[];
}

/**
 * Judges one block of text (a paragraph, a table cell) by every enabled rule, so a rejection
 * reports all of its reasons, not only the first. Options are validated (UserError naming the
 * option, the value and the fix) and merged over DEFAULT_HEURISTICS; undefined values keep the
 * default.
 */
export function evaluateBlock(text: string, options: Partial<HeuristicOptions> = {}): BlockVerdict {
  const opts = resolveHeuristics(options);
  const block = prepare(text, opts.stopWords);
  const disabled = new Set(opts.disabled);
  const reasons: RuleRejection[] = [];
  for (const rule of RULES) {
    if (disabled.has(rule.name)) continue;
    const message = rule.check(block, opts);
    if (message !== undefined) reasons.push({ rule: rule.name, message });
  }
  const n = block.words.length;
  return {
    accepted: reasons.length === 0,
    reasons,
    stats: {
      chars: block.chars,
      words: n,
      stopWords: block.stopWords,
      stopWordRatio: n === 0 ? 0 : block.stopWords / n,
    },
    text: block.text,
    words: block.words,
  };
}

function prepare(raw: string, stopWords: ReadonlySet<string>): PreparedBlock {
  const text = normalizeText(raw);
  const words = segmentWords(text);
  let stops = 0;
  for (const w of words) if (stopWords.has(tokenKey(w))) stops++;
  return { text, chars: countCodePoints(text), words, stopWords: stops };
}

function countCodePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/**
 * Options this module resolved. They are frozen, so one given again needs no second look: a
 * crawl resolves its options once a page and once a block, which cost 3 % of the action's CPU.
 */
const RESOLVED = new WeakSet<object>();

/**
 * Partial options merged over the defaults and checked, once, so the rules can trust them.
 * Exported for callers that evaluate many blocks with one configuration and want errors early.
 */
export function resolveHeuristics(options: Partial<HeuristicOptions> = {}): HeuristicOptions {
  if (RESOLVED.has(options)) return options as HeuristicOptions;
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const o: HeuristicOptions = { ...DEFAULT_HEURISTICS, ...given };
  const known = new Set<string>(Object.keys(DEFAULT_HEURISTICS));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      bad(key, key, `heuristic options are ${[...known].join(', ')}`, 'unknown heuristic option');
    }
  }
  if (!Number.isInteger(o.minWords) || o.minWords < 0) {
    bad('minWords', o.minWords, 'use a whole number of words, 0 or more');
  }
  if (!Number.isInteger(o.maxChars) || o.maxChars < 1) {
    bad('maxChars', o.maxChars, 'use a whole number of characters, 1 or more');
  }
  if (typeof o.minStopWordRatio !== 'number' || !(o.minStopWordRatio >= 0 && o.minStopWordRatio <= 1)) {
    bad('minStopWordRatio', o.minStopWordRatio, 'use a share between 0 and 1, e.g. 0.2 for 20%');
  }
  if (typeof o.forbiddenChars !== 'string') {
    bad('forbiddenChars', o.forbiddenChars, 'give the forbidden characters as one string, e.g. "#[]{}<>"');
  }
  if (!(o.stopWords instanceof Set)) {
    bad('stopWords', o.stopWords, 'pass a set of words, e.g. loadStopWords("appendix-a")');
  }
  if (!Array.isArray(o.disabled)) {
    bad('disabled', o.disabled, `give a list of rule names, e.g. ["min-words"]`);
  }
  for (const name of o.disabled) {
    if (!(RULE_NAMES as readonly string[]).includes(name)) {
      bad('disabled', name, `rule names are ${RULE_NAMES.join(', ')}`, 'unknown heuristic rule');
    }
  }
  RESOLVED.add(Object.freeze(o));
  return o;
}

function bad(option: string, value: unknown, fix: string, what = 'invalid heuristic option'): never {
  throw new UserError(`${what} ${option}`, { value: String(value), fix });
}
