import type { NodeInput } from '../store/store.js';
import type { WalkOutcome } from './outcome.js';

/** What the actions made of a page. */
export interface ActResult {
  outcome: WalkOutcome;
  nodes: NodeInput[];
  /** Absolute URLs found on the page, to be filtered and added to the frontier; with a priority for best-first walks. */
  links: FoundLink[];
}

export type FoundLink = string | { url: string; priority?: number };
