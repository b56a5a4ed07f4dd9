import { copyFileSync, existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../errors.js';
import { maintainPage, type TestedDoc } from '../../maintain/action.js';
import { buildReport, type StoredOutcome } from '../../maintain/report.js';
import { mayWalk, type MaintenanceTask, type TraversalType } from '../../maintain/task.js';
import { indexHtml, indexJson, indexJunit, indexSarif } from '../../maintain/writers.js';
import { VERSION } from '../../version.js';
import { actionsActivity } from '../../walk/actions/activity.js';
import { looksBinaryPath } from '../../walk/constraints/builtin.js';
import { normalizeUrl } from '../../web/url.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { writeWhole } from '../out-file.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';

/** `anwc maintain`: MOMspider's link maintenance (seed paper 004) for one task given by flags. */

const FORMATS = ['.html', '.json', '.xml', '.sarif'] as const;

export const maintainCommand: CommandModule = {
  command: 'maintain',
  describe: 'Check the links of an infostructure (MOMspider): walk it from its top, test every reference once, report moved, broken, modified and expiring documents',
  builder: (y) =>
    withOptions(y, 'tree', 'site', 'owner', 'name', 'changed', 'expired', ...WALK_OPTIONS)
      .option('out', { type: 'string', array: true, describe: `Write the index here, the format by the extension: .html (MOMspider's index; the one before is kept as NAME.prev.html), .json, .xml (JUnit), .sarif; repeat for several` })
      .example('anwc maintain --tree https://example.org/docs/ --out docs-index.html --out docs.sarif', 'a document tree: pages outside /docs/ are leaves')
      .example('anwc maintain --owner https://example.org/~ann/ --name Ann --changed 3 --expired 7 --out ann.html', 'the documents whose Owner is Ann')
      .example("anwc maintain --site http://alpha.test/ --resolve '*.test:127.0.0.1' --delay 0", 'a local test site; broken and moved links on stdout')
      .epilogue('Leaves (documents the traversal does not enter) are tested with HEAD, and with GET when a server refuses HEAD (405, 501). Exit code 1 when a link is broken.'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const task = taskFrom(argv);
    const outs = ((argv.out as string[] | undefined) ?? []).map(String);
    for (const o of outs) {
      if (!(FORMATS as readonly string[]).includes(extname(o).toLowerCase())) {
        throw new UserError(`--out ${o}: no index format for ${extname(o) || 'a name without an extension'}`, { value: o, fix: `end the name with one of ${FORMATS.join(' ')}` });
      }
    }
    const opts = walkRunOptionsFrom(argv, 'bfs');
    opts.fetcher.accept = ['*/*'];
    opts.fetcher.binary = true;
    const tested: TestedDoc[] = [];
    const activity = actionsActivity(`maintain-${task.type}`, safetyConstraints(argv, opts), [maintainPage(task, (d) => tested.push(d))], { text: () => undefined, html: () => undefined });
    activity.method = (link) => (mayWalk(task, link.url) && !looksBinaryPath(new URL(link.url)) ? 'GET' : 'HEAD');
    const { report: run, store } = await walkCommand(argv, activity, [task.top], opts, 'maintain');
    const stored = new Map<string, StoredOutcome>();
    try {
      const urls = new Set([task.top, ...tested.flatMap((d) => [d.url, ...d.refs.map((r) => r.url)])]);
      for (const url of urls) {
        const o = (await store.linkByUrl(url))?.outcome;
        if (o) stored.set(url, { kind: o.kind, detail: o.detail ?? {} });
      }
    } finally {
      await store.close();
    }
    const report = buildReport(task, tested, stored);
    const options = [`${task.type} ${task.top}`, `changed ${task.changedDays ?? '-'}`, `expired ${task.expiredDays ?? '-'}`].join(', ');
    for (const file of outs) {
      const ext = extname(file).toLowerCase();
      let previous: string | undefined;
      if (ext === '.html' && existsSync(file)) {
        previous = file.replace(/\.html$/i, '.prev.html');
        copyFileSync(file, previous);
      }
      const text = ext === '.html' ? indexHtml(report, { previous: previous && basename(previous), options })
        : ext === '.json' ? indexJson(report) : ext === '.xml' ? indexJunit(report) : indexSarif(report, VERSION);
      writeWhole(file, text, '--out');
      process.stderr.write(`anwc: index written to ${file}\n`);
    }
    const i = report.interesting;
    if (argv.json) process.stdout.write(indexJson(report));
    else {
      for (const b of i.broken) process.stdout.write(`broken\t${b.check.url}\t${b.check.detail ?? b.check.status}\t${b.from.join(' ')}\n`);
      for (const m of i.moved) process.stdout.write(`moved\t${m.url}\t${m.movedTo ?? ''}\n`);
      for (const c of i.modified) process.stdout.write(`modified\t${c.url}\t${c.lastModified ?? ''}\n`);
      for (const c of i.expiring) process.stdout.write(`expiring\t${c.url}\t${c.expires ?? ''}\n`);
    }
    process.stderr.write(`anwc: ${report.docs.length} document(s), ${Object.keys(report.checks).length} link(s) tested: ${i.broken.length} broken, ${i.moved.length} moved, ${i.modified.length} modified, ${i.expiring.length} expiring\n`);
    if (run.stop === 'interrupted') return EXIT.INTERRUPTED;
    return i.broken.length > 0 ? EXIT.PROBLEMS : EXIT.OK;
  }),
};

function taskFrom(argv: Record<string, unknown>): MaintenanceTask {
  const given = (['tree', 'site', 'owner'] as const).filter((t) => argv[t] !== undefined);
  if (given.length !== 1) {
    throw new UserError(given.length === 0 ? 'no task: give the top of the infostructure' : `one task at a time: --${given.join(' and --')} given`, { fix: 'give one of --tree URL, --site URL or --owner URL --name NAME' });
  }
  const type: TraversalType = given[0]!;
  const n = normalizeUrl(String(argv[type]));
  if (!n.ok) throw new UserError(`--${type}: ${n.detail}`, { value: String(argv[type]), fix: 'give an absolute http(s) URL, e.g. https://example.org/docs/' });
  const name = argv.name === undefined ? undefined : String(argv.name);
  if (type === 'owner' && !name) throw new UserError('--owner needs --name: the Owner its documents carry', { fix: 'add --name NAME (as in <meta name="Owner" content="NAME">)' });
  const changed = resolved(argv, 'changed').value as number | undefined;
  const expired = resolved(argv, 'expired').value as number | undefined;
  return {
    type, name: name ?? new URL(n.url).host, top: n.url,
    ...(changed === undefined ? {} : { changedDays: changed }), ...(expired === undefined ? {} : { expiredDays: expired }),
  };
}
