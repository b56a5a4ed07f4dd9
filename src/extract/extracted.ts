/** What an extractor made of a page: the blocks kept as narrative, and the others counted by the rule that dropped them. */
export interface Extracted {
  /** In reading order; `text` as stored, `words` as the rules split it. */
  kept: { text: string; words: readonly string[] }[];
  rejected: Record<string, number>;
  /** Blocks looked at. */
  blocks: number;
}

export const EXTRACTORS = ['thesis', 'narrative'] as const;
export type ExtractorName = (typeof EXTRACTORS)[number];
