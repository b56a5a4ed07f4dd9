/**
 * The scoring of the article-extraction benchmark (scrapinghub/article-extraction-benchmark,
 * evaluate.py), re-implemented so that our extractor and the peers' published outputs are scored
 * by the same code: `\w+` Unicode tokens, 4-gram shingle multisets, per-page TP/FP/FN normalised
 * to sum 1, precision and recall macro-averaged over pages, F1 of the two means.
 */

/** Python's `\w` on str: letters, numbers and the underscore (combining marks are not word characters). */
const WORD = /[\p{L}\p{N}_]+/gu;

export function tokens(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Shingles of `n` consecutive tokens as a multiset; a text shorter than `n` tokens is one shingle. */
export function shingles(text: string, n = 4): Map<string, number> {
  const toks = tokens(text);
  const counts = new Map<string, number>();
  const last = Math.max(1, toks.length - n + 1);
  for (let i = 0; i < last; i++) {
    const sh = toks.slice(i, i + n);
    if (sh.length === 0) continue;
    // Tokens never contain a space, so joining keeps shingles distinct.
    const key = sh.join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface PageCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** TP/FP/FN over shingles, divided by their sum so that every page weighs the same. */
export function pageCounts(truth: string, predicted: string, n = 4): PageCounts {
  const t = shingles(truth, n);
  const p = shingles(predicted, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, tc] of t) {
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fn += Math.max(0, tc - pc);
  }
  for (const [key, pc] of p) fp += Math.max(0, pc - (t.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export function pagePrecision({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

export function pageRecall({ tp, fp, fn }: PageCounts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

export interface Score {
  precision: number;
  recall: number;
  f1: number;
  /** Pages whose token sequence equals the ground truth's exactly. */
  accuracy: number;
  pages: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * Scores predictions against ground truth, page by page. A page with nothing predicted and
 * nothing true counts in neither mean, as in evaluate.py.
 */
export function score(pairs: { truth: string; predicted: string }[]): Score {
  const counts = pairs.map((p) => pageCounts(p.truth, p.predicted));
  const precision = mean(counts.filter((c) => c.tp + c.fp > 0).map(pagePrecision));
  const recall = mean(counts.filter((c) => c.tp + c.fn > 0).map(pageRecall));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const same = pairs.filter((p) => tokens(p.truth).join(' ') === tokens(p.predicted).join(' ')).length;
  return { precision, recall, f1, accuracy: pairs.length ? same / pairs.length : 0, pages: pairs.length };
}

/**
 * Paragraph-level precision and recall, over the lines of all pages (a node is a paragraph, so this
 * is what an author sees): a predicted line is right when at least half of its shingles are in the
 * page's truth, and a true line is found when at least half of its shingles are in the prediction.
 * A line shorter than a shingle is right (or found) when its words occur in that order in the other.
 */
export function paragraphScore(pairs: { truth: string; predicted: string }[]): { precision: number; recall: number } {
  let predicted = 0;
  let right = 0;
  let truths = 0;
  let found = 0;
  for (const p of pairs) {
    const truthLines = lines(p.truth);
    const predictedLines = lines(p.predicted);
    const inTruth = textOf(p.truth);
    const inPrediction = textOf(p.predicted);
    predicted += predictedLines.length;
    truths += truthLines.length;
    for (const l of predictedLines) if (mostlyIn(l, inTruth)) right++;
    for (const l of truthLines) if (mostlyIn(l, inPrediction)) found++;
  }
  return { precision: predicted ? right / predicted : 0, recall: truths ? found / truths : 0 };
}

const lines = (text: string) => text.split('\n').filter((l) => tokens(l).length > 0);

/** A text's shingles, and its tokens in one string, where a line too short for a shingle is looked up. */
const textOf = (text: string) => ({ keys: new Set(shingles(text).keys()), joined: ` ${tokens(text).join(' ')} ` });

function mostlyIn(line: string, text: { keys: Set<string>; joined: string }): boolean {
  const toks = tokens(line);
  if (toks.length < 4) return text.joined.includes(` ${toks.join(' ')} `);
  const own = [...shingles(line).keys()];
  return own.filter((k) => text.keys.has(k)).length * 2 >= own.length;
}
