/**
 * The library API: what `import … from 'anwc'` gives. The CLI is built on the same functions.
 */
export { UserError, type UserErrorDetails, type Where } from './errors.js';
export { VERSION } from './version.js';
export * from './markup/index.js';
export * from './text/index.js';
export { splitSentences } from './text/sentences.js';
export * from './html/index.js';
export { narrativeAction, type NarrativeOptions, type MetaContext } from './harvest/narrative.js';
export { FenwickWheel } from './walk/strategies/fenwick.js';
export { RouletteWheel } from './walk/strategies/roulette.js';
export { createStrategy, STRATEGIES, type DomainStrategy, type StrategyName } from './walk/strategies/strategy.js';
export * from './walk/constraints/constraint.js';
export * as constraints from './walk/constraints/builtin.js';
export { describeOutcome, type WalkOutcome } from './walk/outcome.js';
