import { extractBlocks, type Block, type Dom } from '../html/index.js';
import { isBoilerplate, isBoilerplateTag, mainContent, type Boilerplate } from '../html/main-content.js';
import { evaluateBlock, type HeuristicOptions } from '../text/index.js';
import { splitSentences } from '../text/sentences.js';
import { tokenKey, words } from '../text/tokenize.js';
import { isFootnoteLine, plainTypography, withoutCitations } from '../text/typography.js';
import type { Extracted } from './extracted.js';

/**
 * `--extractor narrative`: the thesis's rules, read where a page keeps its text and judged on the
 * evidence of the whole block.
 * - Only the main content (html/main-content.ts, Readability's scoring) is read, without its
 *   navigation, share bars and comment threads.
 * - Blocks beyond p and table: list items, quotations, pre, headings, definitions, captions, the
 *   cells of layout tables, and the text a div holds itself.
 * - A block with over half its characters in links is a menu; a footnote line is apparatus.
 * - Citation markers go and typography is made plain before any rule reads the text.
 * - One or two special characters (a price, a percentage, a ©) do not reject a paragraph the other
 *   rules accept; more do (a price list, a table of figures).
 * - jusText's context: a short block (a one-line paragraph, a line of dialogue) that fails only on
 *   length or capitalisation is kept between two kept blocks, and a heading is kept when the text
 *   it heads is.
 */

const TAGS = ['li', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dd', 'dt', 'div', 'td', 'th', 'figcaption', 'section', 'article', 'main', 'center', 'font'];
const HEADING = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const SOFT = new Set(['min-words', 'capitalization']);
const MAX_LINK_DENSITY = 0.5;
/** Special characters a paragraph may hold and still be judged on its other evidence. */
const SPECIALS_ALLOWED = 2;

type Judged =
  | { kind: 'kept'; text: string; words: readonly string[] }
  | { kind: 'soft'; text: string; words: readonly string[] }
  | { kind: 'heading'; text: string; words: readonly string[] }
  | { kind: 'dropped'; rules: string[] };

/** Less main text than this, read strictly, and the page is read again with boilerplate known by tag alone (Readability's retry). */
const MIN_MAIN_CHARS = 500;

export function narrativeExtract(dom: Dom, o: { heuristics: HeuristicOptions }): Extracted {
  let blocks = mainBlocks(dom, isBoilerplate);
  if (blocks.reduce((n, b) => n + b.text.length, 0) < MIN_MAIN_CHARS) blocks = mainBlocks(dom, isBoilerplateTag);
  const h = englishPage(blocks, o.heuristics) ? o.heuristics : { ...o.heuristics, disabled: [...o.heuristics.disabled, 'stop-word-ratio' as const] };
  const judged = blocks.flatMap((b) => pieces(b, h.maxChars).map((piece) => judge(piece, h)));
  const rejected: Record<string, number> = {};
  const kept: Extracted['kept'] = [];
  const hard = judged.map((j) => j.kind === 'kept');
  for (let i = 0; i < judged.length; i++) {
    const j = judged[i]!;
    if (j.kind === 'dropped') {
      for (const r of j.rules) rejected[r] = (rejected[r] ?? 0) + 1;
      continue;
    }
    const keep = j.kind === 'kept'
      || (j.kind === 'soft' && between(hard, judged, i))
      || (j.kind === 'heading' && headsText(hard, judged, i));
    if (keep) kept.push({ text: j.text, words: j.words });
    else rejected[j.kind === 'heading' ? 'heading-alone' : 'short-alone'] = (rejected[j.kind === 'heading' ? 'heading-alone' : 'short-alone'] ?? 0) + 1;
  }
  return { kept, rejected, blocks: blocks.length };
}

/**
 * The stop-word rule speaks English (its list is the thesis's appendix): on a page whose text has
 * few English stop words it would reject every paragraph, so such a page is judged on the other
 * rules. The share is taken over the whole main text, so one English quotation does not decide.
 */
const ENGLISH_PAGE_RATIO = 0.1;
function englishPage(blocks: Block[], h: HeuristicOptions): boolean {
  const ws = words(blocks.map((b) => b.text).join(' ').slice(0, 20_000));
  let stops = 0;
  for (const w of ws) if (h.stopWords.has(tokenKey(w))) stops++;
  return ws.length === 0 || stops / ws.length >= ENGLISH_PAGE_RATIO;
}

/** A block longer than a node may be (max-length) is cut between sentences into pieces that fit. */
function pieces(b: Block, maxChars: number): Block[] {
  if (b.text.length <= maxChars) return [b];
  const out: Block[] = [];
  let cur = '';
  for (const s of splitSentences(b.text)) {
    if (cur !== '' && cur.length + 1 + s.length > maxChars) {
      out.push({ ...b, text: cur });
      cur = '';
    }
    cur = cur === '' ? s : `${cur} ${s}`;
  }
  if (cur !== '') out.push({ ...b, text: cur });
  return out;
}

function mainBlocks(dom: Dom, boilerplate: Boilerplate): Block[] {
  return mainContent(dom, boilerplate).flatMap((root) => extractBlocks(root, { blocks: TAGS, skip: boilerplate }));
}

function judge(b: Block, h: HeuristicOptions): Judged {
  const text = withoutCitations(plainTypography(b.text));
  if (text === '') return { kind: 'dropped', rules: [] };
  if (b.rejected === 'nested-table') return { kind: 'dropped', rules: [] };
  if (isFootnoteLine(text)) return { kind: 'dropped', rules: ['footnote'] };
  if (b.linkDensity > MAX_LINK_DENSITY) return { kind: 'dropped', rules: ['link-density'] };
  const v = evaluateBlock(text, { ...h, disabled: [...h.disabled, 'forbidden-chars'] });
  const rules = v.reasons.map((r) => r.rule as string);
  if (specials(v.text, h.forbiddenChars) > SPECIALS_ALLOWED) rules.push('forbidden-chars');
  if (HEADING.has(b.tag)) return v.words.length > 0 && v.words.length <= 30 ? { kind: 'heading', text: v.text, words: v.words } : { kind: 'dropped', rules: ['heading-length'] };
  if (rules.length === 0) return { kind: 'kept', text: v.text, words: v.words };
  if (rules.every((r) => SOFT.has(r)) && v.words.length > 0) return { kind: 'soft', text: v.text, words: v.words };
  return { kind: 'dropped', rules };
}

function specials(text: string, forbidden: string): number {
  let n = 0;
  for (const ch of text) if (forbidden.includes(ch)) n++;
  return n;
}

/**
 * The nearest blocks on both sides that are not themselves short or headings were kept; or one of
 * them was and the block ends as a sentence does (a one-line paragraph at the end of a story).
 */
function between(hard: boolean[], judged: Judged[], i: number): boolean {
  const soft = (k: number) => judged[k]!.kind === 'soft' || judged[k]!.kind === 'heading';
  let a = i - 1;
  while (a >= 0 && soft(a)) a--;
  let b = i + 1;
  while (b < judged.length && soft(b)) b++;
  const before = a >= 0 && hard[a]!;
  const after = b < judged.length && hard[b]!;
  const j = judged[i] as { text: string };
  return (before && after) || ((before || after) && SENTENCE_END.test(j.text));
}
const SENTENCE_END = /[.!?…]["')\]]?$/;

/** The first block after the heading that is not a heading is kept. */
function headsText(hard: boolean[], judged: Judged[], i: number): boolean {
  let b = i + 1;
  while (b < judged.length && judged[b]!.kind === 'heading') b++;
  return b < judged.length && hard[b]!;
}
