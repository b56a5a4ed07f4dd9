import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseDom } from '../src/html/index.js';
import { docStats, salton, type Query } from '../src/locate/score.js';
import { normalizeUrl } from '../src/web/url.js';
import { sharedPath } from '../test/support/shared.js';
import { SITES } from '../test/support/testweb.js';
import { startChildWeb } from './harvest.js';

/**
 * The document locator's searches side by side (W4 paper, section 5B and its future work): on a
 * corpus site served on loopback, with a topic, how soon each search reaches the pages that are
 * about it. The relevant pages are found apart from any walk: every file of the site scored with
 * the same Salton score and threshold. Figures are page counts, the same on any machine.
 */

interface Topic {
  /** Where the walk starts: a site's entry page, or the hub that links all five. */
  start: string;
  /** The sites whose files are scored for the relevant set. */
  sites: string[];
  words: string;
  threshold: number;
  depth: number;
}

const ALL = Object.keys(SITES);
const TOPICS: Topic[] = [
  { start: 'diveintopython.test', sites: ['diveintopython.test'], words: 'generator iterator yield', threshold: 0.004, depth: 4 },
  { start: 'debian.test', sites: ['debian.test'], words: 'firewall iptables network', threshold: 0.004, depth: 4 },
  { start: 'hub.test', sites: ALL, words: 'apt repository package', threshold: 0.02, depth: 6 },
];
const MODES = ['local', 'global', 'bfs'] as const;
const MAX_PAGES = 400;

/** The sites' pages whose whole text reaches the threshold, as URLs of the local web. */
function relevantPages(sites: string[], port: number, q: Query, threshold: number): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  for (const host of sites) {
    const root = sharedPath('corpus', SITES[host]!.dir);
    for (const file of walk(root)) {
      if (!/\.x?html?$/.test(file)) continue;
      const text = parseDom(readFileSync(file, 'utf8')).structuredText;
      if (salton(docStats(text, q), q) < threshold) continue;
      const n = normalizeUrl(`http://${host}:${port}/${relative(root, file).split('\\').join('/')}`);
      if (n.ok) out.add(n.url);
    }
  }
  return out;
}

function at(found: number[], share: number, total: number): string {
  const need = Math.max(1, Math.ceil(total * share));
  return found.length >= need ? String(found[need - 1]) : '–';
}

export async function main(): Promise<string> {
  const web = await startChildWeb('corpus');
  const cli = join(fileURLToPath(new URL('..', import.meta.url)), 'src', 'cli', 'main.js');
  const lines: string[] = [];
  try {
    for (const topic of TOPICS) {
      const q: Query = { words: topic.words.split(' '), weights: [] };
      const relevant = relevantPages(topic.sites, web.port, q, topic.threshold);
      const where = topic.start === 'hub.test' ? 'the five corpus sites, from the hub that links them' : topic.start;
      lines.push(
        `## "${topic.words}" on ${where} (${relevant.size} relevant pages by a full scan at Salton ≥ ${topic.threshold}; depth ${topic.depth}, at most ${MAX_PAGES} pages)`,
        '',
        '| search | pages read | relevant found | 1st found after | half after | all after | found in first 10 | 25 | 50 | 100 |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      );
      for (const mode of MODES) {
        const root = `http://${topic.start}:${web.port}${SITES[topic.start]?.entry ?? '/'}`;
        const r = spawnSync(process.execPath, [
          cli, 'locate', root, '--words', topic.words, '--threshold', String(topic.threshold), '--search', mode, '--depth', String(topic.depth),
          '--max-pages', String(MAX_PAGES), '--format', 'json', '--resolve', ...web.resolve, '--hosts', [...topic.sites, topic.start].join(','), '--delay', '0', '--progress', 'none', '--concurrency', '1',
        ], { encoding: 'utf8', timeout: 300_000 });
        if (r.status !== 0) throw new Error(`locate ${mode} failed: ${r.stderr}`);
        const out = JSON.parse(r.stdout) as { pagesRead: number; documents: { url: string; found: number }[] };
        const found = out.documents.filter((d) => relevant.has(d.url)).map((d) => d.found).sort((a, b) => a - b);
        const within = (n: number) => String(found.filter((f) => f <= n).length);
        lines.push(`| ${mode} | ${out.pagesRead} | ${found.length} of ${relevant.size} | ${at(found, 0, relevant.size)} | ${at(found, 0.5, relevant.size)} | ${at(found, 1, relevant.size)} | ${within(10)} | ${within(25)} | ${within(50)} | ${within(100)} |`);
      }
      lines.push('');
    }
  } finally {
    await web.stop();
  }
  lines.push('`found after` is the number of pages the walk had read when it reached the page; lower is better. local: the paper\'s local sort (depth first, best link of the page just read first); global: best first over the frontier (the paper\'s future work); bfs: breadth first.');
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(await main());
