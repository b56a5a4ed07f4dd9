import type { Dom } from '../html/index.js';
import type { HeuristicOptions } from '../text/index.js';
import type { Extracted, ExtractorName } from './extracted.js';
import { narrativeExtract } from './narrative.js';
import { thesisExtract } from './thesis.js';

export { EXTRACTORS, type Extracted, type ExtractorName } from './extracted.js';

/** The page's narrative blocks by the extractor the run chose (`--extractor`). */
export function extract(dom: Dom, name: ExtractorName, o: { blocks?: string[]; heuristics: HeuristicOptions }): Extracted {
  return name === 'narrative' ? narrativeExtract(dom, o) : thesisExtract(dom, o);
}
