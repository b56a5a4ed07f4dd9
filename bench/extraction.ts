/**
 * How well the thesis's extractor (paragraph and table blocks judged by the five content rules)
 * recovers article text, on the 88 development pages of the article-extraction benchmark, scored
 * by the benchmark's own metric beside the published outputs of well-known extractors on the same
 * pages — all scored here by the same code (bench/metric.ts), so the rows compare like with like.
 *
 *   npx tsc -p . && node dist/bench/extraction.js                 (or: node dist/bench/run.js extraction)
 *   BENCH_EXTRACTION_QUICK=1 node dist/bench/run.js extraction     (or: node dist/bench/extraction.js --quick)
 *   node dist/bench/extraction.js --worst readability 15 [thesis]  (the 15 lowest-F1 pages of a set)
 *
 * The first table shows over-fitting (issue 32: an extractor that carries over to pages it was
 * never tuned on). The 88 pages are split in two halves that do not depend on any extractor: the
 * page ids (sha256 hex names) sorted, half A the even positions (0, 2, 4 …), half B the odd ones,
 * 44 pages each. A rule tuned to a few pages lifts the half they sit in; the fold gap
 * |F1(A) − F1(B)| is the over-fitting figure, read beside the gaps of the peers' published outputs
 * (second table), which were never tuned on these pages. The Readability test pages
 * (../shared/data/readability, 130 pages, Readability's expected output as the truth) are a second
 * development set of another kind; a change that helps the 88 and hurts it does not carry over.
 *
 * Throughput is megabytes of (decompressed) HTML per CPU second through decode → parse → blocks →
 * rules (best of five passes, one in quick mode) over the 88; memory is the highest RSS and heap
 * seen after any page of a variant (variants run in one process, so a later one may inherit an
 * earlier one's garbage). Quick mode prints the first table only, for the two anwc extractors.
 * Figures, not asserts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { extractBlocks, parseBytes, type Block } from '../src/html/index.js';
import { DEFAULT_HEURISTICS, evaluateBlock, type HeuristicOptions } from '../src/text/index.js';
import { extract } from '../src/extract/index.js';
import { pageCounts, pagePrecision, pageRecall, paragraphScore, score, tokens, type Score } from './metric.js';
import { needsShared, sharedPath } from '../test/support/shared.js';

interface Page {
  id: string;
  html: Uint8Array;
  truth: string;
}

/** One way of turning a page into article text. */
export interface Variant {
  name: string;
  describe: string;
  extract: (html: Uint8Array) => string;
}

const accepted = (blocks: Block[], heuristics: Partial<HeuristicOptions> = {}) =>
  blocks
    .filter((b) => !b.rejected && evaluateBlock(b.text, heuristics).accepted)
    .map((b) => b.text)
    .join('\n');

export const VARIANTS: Variant[] = [
  {
    name: 'anwc (thesis defaults)',
    describe: 'p and table blocks, the five rules with the thesis settings',
    extract: (bytes) => accepted(extractBlocks(parseBytes(bytes))),
  },
  {
    name: 'anwc --max-link-density 0.5',
    describe: 'as the defaults, and a block with over half its characters in links is rejected',
    extract: (bytes) => accepted(extractBlocks(parseBytes(bytes), { maxLinkDensity: 0.5 })),
  },
  {
    name: 'anwc --blocks div,li,blockquote',
    describe: 'also reads divs (own text only), list items and quotations',
    extract: (bytes) =>
      accepted(extractBlocks(parseBytes(bytes), { blocks: ['div', 'li', 'blockquote'] })),
  },
  {
    name: 'anwc thesis without the special-character rule',
    describe: 'the defaults with forbidden-chars off: what the special-character set costs and gains',
    extract: (bytes) => accepted(extractBlocks(parseBytes(bytes)), { disabled: ['forbidden-chars'] }),
  },
  {
    name: 'anwc --extractor narrative',
    describe: 'the main content only (nothing hidden, class and id names read as words), blocks beyond p and table and loose text, paragraphs at blank lines, link density, the headline, bylines, date, rights and command lines and the linked lines under the story dropped, context, headings, citations and typography, a few special characters judged on the rest, the stop-word rule in the page\'s language, the whole page read when the main content keeps almost nothing',
    extract: (bytes) => extract(parseBytes(bytes), 'narrative', { heuristics: DEFAULT_HEURISTICS }).kept.map((k) => k.text).join('\n'),
  },
];

/** Pages and their truth from a folder of html/<id>.html.gz and ground-truth.json ({id: {articleBody}}). */
export function loadPages(dir = sharedPath('data/extraction')): Page[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody?: string }>;
  return readdirSync(join(dir, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .sort()
    .map((f) => {
      const id = f.slice(0, -'.html.gz'.length);
      return { id, html: gunzipSync(readFileSync(join(dir, 'html', f))), truth: truth[id]?.articleBody ?? '' };
    });
}

/**
 * The two folds of the development pages: ids sorted, half A the even positions, half B the odd.
 * It depends on the ids alone, so no extractor (and no result) can move a page between halves.
 */
export function splitHalves<T extends { id: string }>(pages: T[]): { A: T[]; B: T[] } {
  const sorted = [...pages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { A: sorted.filter((_, i) => i % 2 === 0), B: sorted.filter((_, i) => i % 2 === 1) };
}

/** The sets the summary scores: the halves of the 88, all 88, and the Readability pages. */
export const SET_NAMES = ['A', 'B', 'dev', 'readability'] as const;
export type SetName = (typeof SET_NAMES)[number];

export function loadSets(): Record<SetName, Page[]> {
  const dev = loadPages(sharedPath('data/extraction'));
  const { A, B } = splitHalves(dev);
  return { A, B, dev, readability: loadPages(sharedPath('data/readability')) };
}

/** One page's shingle precision and recall, and their F1, as the metric counts them. */
export interface PageScore {
  id: string;
  precision: number;
  recall: number;
  f1: number;
  /** Words (metric tokens) in the truth and in the extractor's output: 0 given is a page missed whole. */
  truthWords: number;
  givenWords: number;
}

export function pageScore(id: string, truth: string, predicted: string): PageScore {
  const c = pageCounts(truth, predicted);
  const precision = pagePrecision(c);
  const recall = pageRecall(c);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { id, precision, recall, f1, truthWords: tokens(truth).length, givenWords: tokens(predicted).length };
}

export interface SetScores {
  score: Score;
  pages: PageScore[];
}

/**
 * An extractor scored on every set, for a script: the set's score and each page's, so the worst
 * pages of a set can be listed. Each page is extracted once; A and B reuse the dev pages' output.
 */
export function scoreSets(extract: (html: Uint8Array) => string, sets: Record<SetName, Page[]> = loadSets()): Record<SetName, SetScores> {
  const predicted = new Map<Page, string>();
  const out = {} as Record<SetName, SetScores>;
  for (const name of SET_NAMES) {
    const pairs = sets[name].map((p) => {
      if (!predicted.has(p)) predicted.set(p, extract(p.html));
      return { id: p.id, truth: p.truth, predicted: predicted.get(p)! };
    });
    out[name] = { score: score(pairs), pages: pairs.map((p) => pageScore(p.id, p.truth, p.predicted)) };
  }
  return out;
}

export interface VariantResult {
  score: Score;
  paragraphs: { precision: number; recall: number };
  mbPerSecond: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** Each page's output from the last pass, by page id. */
  predicted: Map<string, string>;
}

/**
 * Quality from one pass; speed in CPU time (user + system) of the fastest of `passes`, because
 * other processes share the machine and wall-clock time would measure them.
 */
export function runVariant(v: Variant, pages: Page[], passes = 3): VariantResult {
  const bytes = pages.reduce((n, p) => n + p.html.byteLength, 0);
  let best = Infinity;
  let rss = 0;
  let heap = 0;
  let pairs: { id: string; truth: string; predicted: string }[] = [];
  for (let pass = 0; pass < passes; pass++) {
    let ms = 0;
    pairs = pages.map((p) => {
      const t0 = process.cpuUsage();
      const predicted = v.extract(p.html);
      const dt = process.cpuUsage(t0);
      ms += (dt.user + dt.system) / 1000;
      const m = process.memoryUsage();
      rss = Math.max(rss, m.rss);
      heap = Math.max(heap, m.heapUsed);
      return { id: p.id, truth: p.truth, predicted };
    });
    best = Math.min(best, ms);
  }
  const MB = 1024 * 1024;
  return {
    score: score(pairs),
    paragraphs: paragraphScore(pairs),
    mbPerSecond: bytes / MB / (best / 1000),
    peakRssMb: rss / MB,
    peakHeapMb: heap / MB,
    predicted: new Map(pairs.map((p) => [p.id, p.predicted])),
  };
}

/** Published outputs, scored on the same pages; a page a tool has no output for counts as empty. */
export function peerScores(pages: Page[], dir = sharedPath('data/extraction/peer-output')): [string, Score, { precision: number; recall: number }][] {
  return peerOutputs(dir).map(([name, out]) => {
    const pairs = pages.map((p) => ({ truth: p.truth, predicted: out[p.id]?.articleBody ?? '' }));
    return [name, score(pairs), paragraphScore(pairs)];
  });
}

function peerOutputs(dir: string): [string, Record<string, { articleBody?: string }>][] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, { articleBody?: string }>]);
}

const f3 = (x: number) => x.toFixed(3);
const fpr = (s: Score) => `${f3(s.f1)} (${f3(s.precision)} / ${f3(s.recall)})`;

/** The two extractors a user can choose (`--extractor thesis`, `--extractor narrative`): the summary's rows. */
export const SUMMARY_VARIANTS = ['anwc (thesis defaults)', 'anwc --extractor narrative'];

/** The over-fitting table: each extractor on half A, half B, all 88 and the Readability pages. */
function summaryTable(sets: Record<SetName, Page[]>, results: [Variant, VariantResult][], passes: number): string[] {
  const rows = results.map(([v, r]) => {
    const on = (pages: Page[]) => score(pages.map((p) => ({ truth: p.truth, predicted: r.predicted.get(p.id) ?? '' })));
    const a = on(sets.A);
    const b = on(sets.B);
    const readability = score(sets.readability.map((p) => ({ truth: p.truth, predicted: v.extract(p.html) })));
    return `| **${v.name}** | ${fpr(a)} | ${fpr(b)} | ${fpr(r.score)} | ${fpr(readability)} | ${f3(Math.abs(a.f1 - b.f1))} | ${r.mbPerSecond.toFixed(1)} |`;
  });
  return [
    `## Does it carry over? F1 (precision / recall) on the two halves of the ${sets.dev.length} pages and on the Readability pages`,
    '',
    `| extractor | half A (${sets.A.length}) | half B (${sets.B.length}) | all ${sets.dev.length} | Readability (${sets.readability.length}) | fold gap \\|A − B\\| | MB per CPU-s |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Halves: the page ids sorted, A the even positions and B the odd. The fold gap is the over-fitting figure:',
    'a rule tuned to some of the 88 pages lifts their half only. Readability: its test pages, with its own',
    `expected output as the truth (it keeps headings and captions). MB per CPU-s over the ${sets.dev.length}, ` +
      (passes > 1 ? `best of ${passes} passes.` : 'one pass (quick mode: a rough figure).'),
  ];
}

/** The peers' published outputs on the two halves: what a gap between halves is for an extractor never tuned here. */
function peerHalvesTable(sets: Record<SetName, Page[]>): string[] {
  const rows = peerOutputs(sharedPath('data/extraction/peer-output'))
    .map(([name, out]) => {
      const on = (pages: Page[]) => score(pages.map((p) => ({ truth: p.truth, predicted: out[p.id]?.articleBody ?? '' })));
      return { name, a: on(sets.A), b: on(sets.B), all: on(sets.dev) };
    })
    .sort((x, y) => y.all.f1 - x.all.f1)
    .map(({ name, a, b, all }) => `| ${name} | ${f3(a.f1)} | ${f3(b.f1)} | ${f3(all.f1)} | ${f3(Math.abs(a.f1 - b.f1))} |`);
  return [
    '### The peers\' published outputs on the same halves (no output for the Readability pages)',
    '',
    '| extractor | F1 half A | F1 half B | F1 all | fold gap |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ];
}

function detailTable(pages: Page[], results: [Variant, VariantResult][]): string[] {
  const mb = pages.reduce((n, p) => n + p.html.byteLength, 0) / (1024 * 1024);
  const rows = results.map(
    ([v, r]) =>
      `| **${v.name}** | ${f3(r.score.f1)} | ${f3(r.score.precision)} | ${f3(r.score.recall)} | ${f3(r.score.accuracy)} | ` +
      `${f3(r.paragraphs.precision)} / ${f3(r.paragraphs.recall)} | ` +
      `${r.mbPerSecond.toFixed(1)} | ${r.peakRssMb.toFixed(0)} / ${r.peakHeapMb.toFixed(0)} |`,
  );
  const peers = peerScores(pages).sort((a, b) => b[1].f1 - a[1].f1);
  for (const [name, s, par] of peers) {
    rows.push(`| ${name} (published output) | ${f3(s.f1)} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.accuracy)} | ${f3(par.precision)} / ${f3(par.recall)} | | |`);
  }
  return [
    `## Article extraction: ${pages.length} pages, ${mb.toFixed(1)} MB of HTML (../shared/data/extraction)`,
    '',
    '| extractor | F1 | precision | recall | accuracy | paragraphs P / R | MB per CPU-s | peak RSS / heap MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Variants:',
    ...VARIANTS.map((v) => `- ${v.name}: ${v.describe}`),
    'Every row is scored by bench/metric.ts (the benchmark\'s evaluate.py metric) on the same pages;',
    'peers\' rows come from their published outputs, so they have no speed or memory figures.',
    'Paragraphs P / R: of the lines given, the share mostly in the truth; of the true lines, the share mostly given',
    '(go_trafilatura and justext published one line a page, so their paragraph figures judge whole pages).',
  ];
}

const QUICK = () => process.env.BENCH_EXTRACTION_QUICK === '1';

/** The bench: the summary first; unless quick, the peers' halves and the detailed table after it. */
export async function main(quick = QUICK()): Promise<void> {
  const missing = needsShared('data/extraction', 'data/readability');
  if (missing) {
    process.stdout.write(`extraction: skipped, ${missing}\n`);
    return;
  }
  const sets = loadSets();
  // One untimed pass warms the JIT so the first variant is not charged for compilation.
  for (const p of sets.dev.slice(0, 10)) VARIANTS[0]!.extract(p.html);
  const variants = quick ? VARIANTS.filter((v) => SUMMARY_VARIANTS.includes(v.name)) : VARIANTS;
  const passes = quick ? 1 : 5;
  const results = variants.map((v): [Variant, VariantResult] => [v, runVariant(v, sets.dev, passes)]);
  const lines = summaryTable(sets, results.filter(([v]) => SUMMARY_VARIANTS.includes(v.name)), passes);
  if (!quick) lines.push('', ...peerHalvesTable(sets), '', ...detailTable(sets.dev, results));
  process.stdout.write(lines.join('\n') + '\n');
}

/** `--worst SET [N] [thesis|narrative]`: a set's N lowest-F1 pages for an extractor (narrative by default). */
function worst(args: string[]): number {
  const [set, n = '15', which = 'narrative'] = args;
  if (!SET_NAMES.includes(set as SetName) || !/^\d+$/.test(n) || !['thesis', 'narrative'].includes(which)) {
    process.stderr.write(`usage: node dist/bench/extraction.js --worst ${SET_NAMES.join('|')} [N] [thesis|narrative]\n`);
    return 2;
  }
  const missing = needsShared('data/extraction', 'data/readability');
  if (missing) {
    process.stderr.write(`extraction: ${missing}\n`);
    return 2;
  }
  const v = VARIANTS.find((x) => x.name === SUMMARY_VARIANTS[which === 'thesis' ? 0 : 1])!;
  const s = scoreSets(v.extract)[set as SetName];
  const rows = [...s.pages].sort((a, b) => a.f1 - b.f1).slice(0, Number(n));
  process.stdout.write(
    [
      `## ${v.name} on ${set}: F1 ${fpr(s.score)} over ${s.pages.length} pages; the ${rows.length} lowest`,
      '',
      '| page | F1 | precision | recall | words true / given |',
      '| --- | --- | --- | --- | --- |',
      ...rows.map((p) => `| ${p.id} | ${f3(p.f1)} | ${f3(p.precision)} | ${f3(p.recall)} | ${p.truthWords} / ${p.givenWords} |`),
    ].join('\n') + '\n',
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  if (args[0] === '--worst') process.exitCode = worst(args.slice(1));
  else await main(QUICK() || args.includes('--quick'));
}
