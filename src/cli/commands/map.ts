import { spawnSync } from 'node:child_process';
import { ABOUT } from './about.js';
import { extname } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../errors.js';
import { mapPage } from '../../map/action.js';
import { mapDot } from '../../map/dot.js';
import { buildMap, mapJson, treeText, type KnownLink, type PageFacts, type SiteMap } from '../../map/graph.js';
import { mapHtml } from '../../map/html.js';
import { mapGexf, mapGraphml } from '../../map/xml.js';
import type { Store } from '../../store/store.js';
import { actionsActivity } from '../../walk/actions/activity.js';
import { compileConstraints } from '../../walk/activity/compile.js';
import { parseConstraintText } from '../../walk/activity/parse.js';
import { sameHost } from '../../walk/constraints/builtin.js';
import { depth as depthConstraint } from '../../walk/constraints/uri.js';
import { resolved, withOptions } from '../options.js';
import { checkOutFormats, prepareOuts, writeWhole } from '../out-file.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkExit, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';

/** `anwc map`: the W4 paper's Web Mapper (section 5A) on the walker. */

const FORMATS = ['.html', '.dot', '.graphml', '.gexf', '.json', '.svg'] as const;

export const mapCommand: CommandModule = {
  ...ABOUT.map,
  builder: (y) =>
    withOptions(y.positional('urls', { type: 'string', array: true, describe: 'Root URLs' }), 'depth', 'same-host', 'constraints', 'headers', ...WALK_OPTIONS)
      .option('out', { type: 'string', array: true, describe: `Write the map here, the format by the extension (${FORMATS.join(' ')}); repeat for several. Without it the tree is printed` })
      .example('anwc map https://example.org/ --depth 2 --same-host --out site.html --out site.gexf', 'an expandable tree to read, and a graph for Gephi')
      .example('anwc map https://example.org/docs/ --constraints \'(uri-subsumed-by-directory-path ("docs"))\' --out docs.svg', 'only under /docs/, drawn by Graphviz')
      .example("anwc map http://alpha.test/ --resolve '*.test:127.0.0.1' --delay 0", 'a local test web, the tree on stdout')
      .epilogue('Every link is an edge (a link repeated on a page is repeated in the graph); a link the walk did not follow is a node with what became of it, or "outside" when the map\'s scope left it out. SVG needs Graphviz (apt install graphviz).'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const outs = ((argv.out as string[] | undefined) ?? []).map(String);
    checkOutFormats(outs, FORMATS, 'map');
    prepareOuts(outs, '--out');
    // Before any request: an SVG alone that cannot be drawn is not worth the walk.
    if (outs.length > 0 && outs.every((o) => extname(o).toLowerCase() === '.svg') && !graphvizInstalled()) {
      throw new UserError(`Graphviz is not installed, so ${outs.join(', ')} cannot be drawn`, { fix: 'install it (apt install graphviz), or write .dot and draw it elsewhere' });
    }
    const opts = walkRunOptionsFrom(argv, 'bfs');
    const constraints = [depthConstraint(resolved(argv, 'depth').value as number), ...safetyConstraints(argv, opts)];
    if (argv['same-host']) constraints.push(sameHost());
    if (argv.constraints !== undefined) constraints.push(...compileConstraints(parseConstraintText(String(argv.constraints), '--constraints'), '--constraints'));
    const pages: PageFacts[] = [];
    const activity = actionsActivity('map', constraints, [mapPage((p) => pages.push(p))], { text: () => undefined, html: () => undefined });
    const ran = await walkCommand(argv, activity, (argv.urls as string[]) ?? [], opts, 'map');
    // In the spelling the walk stores, so that a root is found again, and without a password.
    const { report, store, roots } = ran;
    let map: SiteMap;
    try {
      map = buildMap(roots, pages, await knownLinks(store, roots, pages), { headers: Boolean(argv.headers) });
    } finally {
      await store.close();
    }
    // The same counts, by the same names, as the run summary on stderr.
    const facts: [string, string][] = [
      ['roots', roots.join(' ')], ['made', new Date().toISOString()], ['pages walked', String(report.stats.pagesDone)], ['pages fetched', String(report.stats.pagesFetched)],
      ['pages read into the map', String(pages.length)], ['nodes', String(map.nodes.length)], ['links', String(map.edges.length)], ['stopped', report.stop],
    ];
    let missingGraphviz: string | undefined;
    for (const file of outs) {
      const ext = extname(file).toLowerCase();
      if (ext === '.svg') {
        const svg = graphviz(mapDot(map));
        if (svg === undefined) {
          missingGraphviz = file;
          continue;
        }
        writeWhole(file, svg, '--out');
      } else {
        writeWhole(file, ext === '.html' ? mapHtml(map, facts) : ext === '.dot' ? mapDot(map) : ext === '.graphml' ? mapGraphml(map) : ext === '.gexf' ? mapGexf(map) : mapJson(map), '--out');
      }
      process.stderr.write(`anwc: map written to ${file}\n`);
    }
    if (outs.length === 0) process.stdout.write(argv.json ? mapJson(map) : treeText(map));
    if (missingGraphviz) {
      const others = outs.length > 1 ? '; the other files were written' : '';
      throw new UserError(`Graphviz is not installed, so ${missingGraphviz} was not drawn${others}`, { fix: 'install it (apt install graphviz), or write .dot and draw it elsewhere' });
    }
    return walkExit(ran);
  }),
};

/** What the store knows of every URL on the map: its state, and the page it was found on. */
/** What the store knows of the roots and of every page walked and linked: a root that failed is there only. */
async function knownLinks(store: Store, roots: readonly string[], pages: readonly PageFacts[]): Promise<Map<string, KnownLink>> {
  const urls = new Set<string>(roots);
  for (const p of pages) {
    urls.add(p.url);
    for (const r of p.refs) urls.add(r.url);
  }
  const out = new Map<string, KnownLink>();
  for (const url of urls) {
    const l = await store.linkByUrl(url);
    if (!l) continue;
    const parent = l.referrerUrl ?? undefined;
    const status = typeof l.outcome?.detail?.status === 'number' ? l.outcome.detail.status : undefined;
    const state = l.status === 'done' ? 'walked' : l.status;
    out.set(url, { state, depth: l.depth, ...(status ? { status } : {}), ...(l.outcome ? { outcome: l.outcome.kind } : {}), ...(parent ? { parent } : {}) });
  }
  return out;
}

function graphvizInstalled(): boolean {
  const r = spawnSync('dot', ['-V'], { timeout: 10_000 });
  return !(r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT');
}

/** The SVG Graphviz draws from DOT, or undefined when `dot` is not installed. */
function graphviz(dot: string): string | undefined {
  const r = spawnSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  if (r.status !== 0) throw new UserError(`Graphviz could not draw the map: ${(r.stderr || String(r.error)).split('\n')[0]}`, { fix: 'write .dot instead and draw it with your own Graphviz options' });
  return r.stdout;
}
