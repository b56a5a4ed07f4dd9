/**
 * How well the thesis's extractor (paragraph and table blocks judged by the five content rules)
 * recovers article text, on the 88 development pages of the article-extraction benchmark, scored
 * by the benchmark's own metric beside the published outputs of well-known extractors on the same
 * pages — all scored here by the same code (bench/metric.ts), so the rows compare like with like.
 *
 *   npx tsc -p . && node dist/bench/extraction.js
 *
 * Throughput is megabytes of (decompressed) HTML per CPU second through decode → parse → blocks →
 * rules (best of three passes); memory is the highest RSS and heap seen after any page of a variant
 * (variants run in one process, so a later one may inherit an earlier one's garbage). Figures, not asserts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { decodeHtml, extractBlocks, parseDom, type Block } from '../src/html/index.js';
import { DEFAULT_HEURISTICS, evaluateBlock, type HeuristicOptions } from '../src/text/index.js';
import { extract } from '../src/extract/index.js';
import { paragraphScore, score, type Score } from './metric.js';
import { sharedPath } from '../test/support/shared.js';

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
    extract: (bytes) => accepted(extractBlocks(parseDom(decodeHtml(bytes).text))),
  },
  {
    name: 'anwc --max-link-density 0.5',
    describe: 'as the defaults, and a block with over half its characters in links is rejected',
    extract: (bytes) => accepted(extractBlocks(parseDom(decodeHtml(bytes).text), { maxLinkDensity: 0.5 })),
  },
  {
    name: 'anwc --blocks div,li,blockquote',
    describe: 'also reads divs (own text only), list items and quotations',
    extract: (bytes) =>
      accepted(extractBlocks(parseDom(decodeHtml(bytes).text), { blocks: ['div', 'li', 'blockquote'] })),
  },
  {
    name: 'anwc thesis without the special-character rule',
    describe: 'the defaults with forbidden-chars off: what the special-character set costs and gains',
    extract: (bytes) => accepted(extractBlocks(parseDom(decodeHtml(bytes).text)), { disabled: ['forbidden-chars'] }),
  },
  {
    name: 'anwc --extractor narrative',
    describe: 'the main content only, blocks beyond p and table, paragraphs at blank lines, link density, the headline and the linked lines under the story dropped, context, headings, citations and typography, a few special characters judged on the rest',
    extract: (bytes) => extract(parseDom(decodeHtml(bytes).text), 'narrative', { heuristics: DEFAULT_HEURISTICS }).kept.map((k) => k.text).join('\n'),
  },
];

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

export interface VariantResult {
  score: Score;
  paragraphs: { precision: number; recall: number };
  mbPerSecond: number;
  peakRssMb: number;
  peakHeapMb: number;
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
  let pairs: { truth: string; predicted: string }[] = [];
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
      return { truth: p.truth, predicted };
    });
    best = Math.min(best, ms);
  }
  const MB = 1024 * 1024;
  return { score: score(pairs), paragraphs: paragraphScore(pairs), mbPerSecond: bytes / MB / (best / 1000), peakRssMb: rss / MB, peakHeapMb: heap / MB };
}

/** Published outputs, scored on the same pages; a page a tool has no output for counts as empty. */
export function peerScores(pages: Page[], dir = sharedPath('data/extraction/peer-output')): [string, Score, { precision: number; recall: number }][] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const out = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, { articleBody?: string }>;
      const pairs = pages.map((p) => ({ truth: p.truth, predicted: out[p.id]?.articleBody ?? '' }));
      return [f.slice(0, -5), score(pairs), paragraphScore(pairs)];
    });
}

const f3 = (x: number) => x.toFixed(3);

export async function main(): Promise<void> {
  const pages = loadPages();
  const mb = pages.reduce((n, p) => n + p.html.byteLength, 0) / (1024 * 1024);
  // One untimed pass warms the JIT so the first variant is not charged for compilation.
  for (const p of pages.slice(0, 10)) VARIANTS[0]!.extract(p.html);
  const rows: string[] = [];
  for (const v of VARIANTS) {
    const r = runVariant(v, pages);
    rows.push(
      `| **${v.name}** | ${f3(r.score.f1)} | ${f3(r.score.precision)} | ${f3(r.score.recall)} | ${f3(r.score.accuracy)} | ` +
        `${f3(r.paragraphs.precision)} / ${f3(r.paragraphs.recall)} | ` +
        `${r.mbPerSecond.toFixed(1)} | ${r.peakRssMb.toFixed(0)} / ${r.peakHeapMb.toFixed(0)} |`,
    );
  }
  const peers = peerScores(pages).sort((a, b) => b[1].f1 - a[1].f1);
  for (const [name, s, par] of peers) {
    rows.push(`| ${name} (published output) | ${f3(s.f1)} | ${f3(s.precision)} | ${f3(s.recall)} | ${f3(s.accuracy)} | ${f3(par.precision)} / ${f3(par.recall)} | | |`);
  }
  const lines = [
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
  process.stdout.write(lines.join('\n') + '\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
