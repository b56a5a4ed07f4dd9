import { pathToFileURL } from 'node:url';
import { decodeHtml } from '../src/html/decode.js';
import { narrativeAction, type MetaContext } from '../src/walk/actions/narrative.js';
import { needsShared } from '../test/support/shared.js';
import { crawlShape, gradedWeb } from './graded-web.js';
import { REAL_PAGE_DIRS, sharedPages } from './real-web.js';
import { count } from './knobs.js';

/**
 * The narrative action alone (issue: speed): parse, blocks, the thesis rules, band keys, in this
 * process, on the crawl bench's graded pages and on ../shared's real pages (real-web.ts), without
 * meta words (the crawl bench's harvests) and with two (a topic-scored harvest stems every word
 * of every kept block). The fastest of PASSES passes, as a page's cost on a quiet machine; the
 * real pages beside the graded ones.
 *
 *   npm run build && node dist/bench/run.js action
 */

const PASSES = count('BENCH_ACTION_PASSES', 5);
const NO_META: MetaContext = { metaWordIds: [], metaStems: [] };
const TWO_WORDS: MetaContext = { metaWordIds: [1, 2], metaStems: ['lighthous', 'storm'] };

interface PageSet {
  name: string;
  pages: { url: string; text: string }[];
}

function gradedPages(): PageSet {
  const web = gradedWeb(crawlShape(20, 100));
  const pages = web.hosts.flatMap((h) => [...h.pages].filter(([path]) => path !== '/robots.txt').map(([path, text]) => ({ url: `http://${h.host}${path}`, text })));
  return { name: 'graded web (crawl bench)', pages };
}

function realPages(): PageSet {
  const pages = sharedPages().map((bytes, i) => ({ url: `http://r0.real.test/p${i}.html`, text: decodeHtml(bytes, 'text/html').text }));
  return { name: "real pages (../shared's)", pages };
}

/** The fastest pass's ms a page. */
function msPerPage(set: PageSet, meta: MetaContext): number {
  let best = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const t0 = performance.now();
    for (const p of set.pages) narrativeAction({ finalUrl: p.url, status: 200, headers: {}, text: p.text, truncated: false }, meta, { robotsToken: 'anwc' });
    best = Math.min(best, (performance.now() - t0) / set.pages.length);
  }
  return best;
}

export function main(): string {
  const missing = needsShared(...REAL_PAGE_DIRS);
  const sets = [gradedPages(), ...(missing ? [] : [realPages()])];
  // One pass of each first: the code is compiled before it is timed.
  for (const set of sets) msPerPage({ ...set, pages: set.pages.slice(0, 50) }, TWO_WORDS);
  const rows = sets.map((set) => {
    const kb = set.pages.reduce((sum, p) => sum + p.text.length, 0) / set.pages.length / 1024;
    return { set, kb, none: msPerPage(set, NO_META), two: msPerPage(set, TWO_WORDS) };
  });
  const base = rows[0]!;
  return [
    `## The narrative action alone, ms a page (fastest of ${PASSES} passes)`,
    '',
    '| pages | count | kB a page (characters) | no meta words | vs graded | two meta words | vs graded |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.set.name} | ${r.set.pages.length} | ${r.kb.toFixed(1)} | ${r.none.toFixed(3)} | ${(r.none / base.none).toFixed(1)} | ${r.two.toFixed(3)} | ${(r.two / base.two).toFixed(1)} |`),
    '',
    'In this process, with its young generation (a harvest runs the action on a thread of its own, whose young generation is 8 MB a semi-space: src/walk/actions/narrative-thread.ts).',
    ...(missing ? [`Real pages: skipped, ${missing}.`] : []),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(main());
