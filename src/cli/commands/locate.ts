import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { locatePage, type ScoredPage, type SearchMode } from '../../locate/action.js';
import { rank, rankingHtml, rankingText, type Scoring } from '../../locate/ranking.js';
import type { Query } from '../../locate/score.js';
import { UserError } from '../../errors.js';
import { actionsActivity } from '../../walk/actions/activity.js';
import { sameHost } from '../../walk/constraints/builtin.js';
import { depth as depthConstraint, noCycles } from '../../walk/constraints/uri.js';
import { resolved, withOptions } from '../options.js';
import { prepareOuts, writeWhole } from '../out-file.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkExit, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';

/** `anwc locate`: the W4 paper's Document Locator (section 5B) on the walker. */

export const locateCommand: CommandModule = {
  ...ABOUT.locate,
  builder: (y) =>
    withOptions(y.positional('urls', { type: 'string', array: true, describe: 'Root URLs' }), 'words', 'weights', 'threshold', 'search', 'scoring', 'depth', 'same-host', 'out', ...WALK_OPTIONS)
      .option('format', { choices: ['text', 'json', 'html'] as const, default: 'text', describe: 'The ranked table as text, JSON or a self-contained HTML page' })
      .option('out', { type: 'string', describe: 'Write the table to this file (replaced whole) instead of stdout' })
      .demandOption('words')
      .example('anwc locate https://example.org/ --words "lisp server" --weights ".9 .5" --depth 3', 'the paper\'s example, local sort')
      .example('anwc locate https://example.org/ --words "lisp server" --search global --scoring bm25 --format html --out found.html', 'best-first over the whole frontier, ranked by BM25')
      .example("anwc locate http://alpha.test/ --words 'time traveller' --resolve '*.test:127.0.0.1' --delay 0", 'a local test web')
      .epilogue(
        'Priorities order the links of one host; with several hosts the walk takes hosts in turn (the strategy) and each host\n' +
          'its best link. `found after` is how many pages the walk had read when it reached the document.',
      ),
  handler: handler(async (argv: Record<string, unknown>) => {
    const q = queryFrom(argv);
    if (argv.out) prepareOuts([String(argv.out)], '--out');
    const mode = resolved(argv, 'search').value as SearchMode;
    const scoring = resolved(argv, 'scoring').value as Scoring;
    const threshold = resolved(argv, 'threshold').value as number;
    const maxDepth = resolved(argv, 'depth').value as number;
    const opts = walkRunOptionsFrom(argv, mode === 'local' ? 'dfs' : 'bfs');
    const constraints = [depthConstraint(maxDepth), noCycles(), ...safetyConstraints(argv, opts)];
    if (argv['same-host']) constraints.push(sameHost());
    const pages: ScoredPage[] = [];
    const activity = actionsActivity(`locate-${mode}`, constraints, [locatePage(q, mode, (p) => pages.push(p))], { text: () => undefined, html: () => undefined });
    if (mode !== 'bfs') activity.linkOrder = 'priority';
    const ran = await walkCommand(argv, activity, (argv.urls as string[]) ?? [], opts, 'locate');
    await ran.store.close();
    const docs = rank(pages, q, scoring, threshold);
    const format = String(argv.format);
    const facts: [string, string][] = [
      ['roots', ran.roots.join(' ')], ['words', q.words.join(' ')], ['weights', q.words.map((_w, i) => String(q.weights[i] ?? 1)).join(' ')],
      ['threshold', String(threshold)], ['search', mode], ['scoring', scoring], ['pages read', String(pages.length)], ['made', new Date().toISOString()],
    ];
    const out = format === 'json'
      ? `${JSON.stringify({ ...Object.fromEntries(facts), pagesRead: pages.length, documents: docs }, null, 2)}\n`
      : format === 'html' ? rankingHtml(docs, facts) : rankingText(docs);
    if (argv.out) writeWhole(String(argv.out), out, '--out');
    else process.stdout.write(out);
    process.stderr.write(`anwc: ${docs.length} document(s) at or over ${threshold} (${scoring}) among ${pages.length} page(s) read\n`);
    return walkExit(ran);
  }),
};

function queryFrom(argv: Record<string, unknown>): Query {
  const words = String(argv.words).split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new UserError('--words is empty', { fix: 'give the words to look for, e.g. --words "lisp server"' });
  const given = argv.weights === undefined ? [] : String(argv.weights).split(/\s+/).filter(Boolean);
  const weights = given.map(Number);
  const bad = given.findIndex((w, i) => !Number.isFinite(weights[i]) || weights[i]! < 0 || w === '');
  if (bad >= 0) throw new UserError(`--weights: ${given[bad]} is not a weight`, { value: given[bad], fix: 'give one number, 0 or more, per word, e.g. --weights ".9 .5"' });
  if (given.length > 0 && given.length !== words.length) {
    throw new UserError(`--weights has ${given.length} weight(s) for ${words.length} word(s)`, { value: String(argv.weights), fix: 'give one weight per word, in the order of --words' });
  }
  return { words, weights };
}
