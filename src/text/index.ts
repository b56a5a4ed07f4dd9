/** src/text: pure text analysis (the stop-word files are its only reads). */
export { normalizeText } from './normalize.js';
export { words, tokenize, tokenKey } from './tokenize.js';
export { stem } from './stem.js';
export {
  DEFAULT_STOP_WORDS,
  loadStopWords,
  parseStopWords,
  stopWordListNames,
  stopWordsDir,
} from './stopwords.js';
export {
  DEFAULT_FORBIDDEN_CHARS,
  DEFAULT_HEURISTICS,
  RULE_NAMES,
  RULES,
  evaluateBlock,
  resolveHeuristics,
  type BlockStats,
  type BlockVerdict,
  type HeuristicOptions,
  type RuleName,
  type RuleRejection,
} from './heuristics.js';
export type { PreparedBlock, Rule } from './rules/types.js';
export { contentStems, contentStemsOfWords, metaEvidence, relevance, relevanceOfStems, type RelevanceOptions } from './relevance.js';
