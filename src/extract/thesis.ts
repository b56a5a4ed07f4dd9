import { extractBlocks, type Dom } from '../html/index.js';
import { evaluateBlock, type HeuristicOptions } from '../text/index.js';
import type { Extracted } from './extracted.js';

/**
 * The thesis's extractor (section 3.2.2): each paragraph and table block (and the extra tags the
 * user names) judged by the five content rules; a block is kept when every rule passes.
 */
export function thesisExtract(dom: Dom, o: { blocks?: string[]; heuristics: HeuristicOptions }): Extracted {
  const rejected: Record<string, number> = {};
  const kept: Extracted['kept'] = [];
  const blocks = extractBlocks(dom, { blocks: o.blocks });
  for (const block of blocks) {
    if (block.rejected) {
      rejected[block.rejected] = (rejected[block.rejected] ?? 0) + 1;
      continue;
    }
    const verdict = evaluateBlock(block.text, o.heuristics);
    if (!verdict.accepted) {
      for (const r of verdict.reasons) rejected[r.rule] = (rejected[r.rule] ?? 0) + 1;
      continue;
    }
    kept.push({ text: verdict.text, words: verdict.words });
  }
  return { kept, rejected, blocks: blocks.length };
}
