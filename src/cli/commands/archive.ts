import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ABOUT } from './about.js';
import type { CommandModule } from 'yargs';
import { archivePage } from '../../archive/action.js';
import { Archive, type StoreResult } from '../../archive/archive.js';
import { UserError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { VERSION } from '../../version.js';
import { actionsActivity } from '../../walk/actions/activity.js';
import { sameHost } from '../../walk/constraints/builtin.js';
import { depth as depthConstraint } from '../../walk/constraints/uri.js';
import { EXIT } from '../exit.js';
import { listFlag } from '../list-flag.js';
import { resolved, withOptions } from '../options.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkExit, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';

/**
 * `anwc archive`: the W4 paper's Web Archiver (section 5C) on the walker. The copy browses
 * offline; the WARC beside it replays in pywb or replayweb.page; `--refresh` asks the server
 * again for every copy with the validators it gave and says what changed.
 */

const quiet = { text: () => undefined, html: () => undefined };

export const archiveCommand: CommandModule = {
  ...ABOUT.archive,
  builder: (y) =>
    withOptions(y.positional('urls', { type: 'string', array: true, describe: 'Root URLs' }), 'out', 'refresh', 'depth', 'content-type', 'same-host', ...WALK_OPTIONS)
      .option('out', { type: 'string', describe: 'The archive folder: new, empty, or one anwc archived into before (the walk resumes)' })
      .option('state', { type: 'string', describe: 'Keep the walk\'s frontier here instead of in the archive (DIR/.anwc/state.sqlite)' })
      .example('anwc archive https://example.org/docs/ --out docs-copy --depth 3', 'copy three links deep; open docs-copy/example.org/docs/index.html')
      .example('anwc archive --refresh docs-copy', 'fetch every copy again if changed (conditional GET) and list what changed')
      .example("anwc archive http://alpha.test/ --out /tmp/alpha --resolve '*.test:127.0.0.1' --delay 0", 'a local test web')
      .epilogue(
        'The folder holds one folder per host (host@port off the default port), anwc.warc.gz (WARC 1.1: a response and a ' +
          'request record for every answer, redirects and errors included; on --refresh a revisit record for each 304), ' +
          'anwc.cdxj (its index) and .anwc/ (the header table, the fetched HTML, the walk\'s state, so that an interrupted ' +
          'archive resumes when run again). Pages are stored decoded (the WARC keeps no Content-Encoding).\n' +
          'Exit codes of --refresh: 0 every copy checked, 1 a copy gone or not checked (give the refresh the same --resolve, ' +
          '--allow-private and --hosts as the archive run), 2 bad input, 130 interrupted.',
      ),
  handler: handler(async (argv: Record<string, unknown>) => {
    const urls = (argv.urls as string[] | undefined) ?? [];
    const refresh = argv.refresh as string | undefined;
    if (refresh !== undefined && urls.length > 0) {
      throw new UserError('--refresh takes the archive folder alone', { value: urls.join(' '), fix: 'run anwc archive --refresh DIR, or anwc archive URL --out DIR to add pages' });
    }
    if (refresh === undefined && argv.out === undefined) throw new UserError('no folder for the archive', { fix: 'give --out DIR (or --refresh DIR for an archive made before)' });
    const opts = walkRunOptionsFrom(argv, 'bfs');
    opts.fetcher.binary = true;
    opts.fetcher.accept = listFlag(resolved(argv, 'content-type').value);
    const safety = safetyConstraints(argv, opts);
    if (argv['same-host']) safety.push(sameHost());
    const software = `anwc/${VERSION}`;
    const open = (archive: Archive): Archive => {
      // Redirects, 304s and error answers go to the WARC too, as wget and Heritrix keep them.
      opts.onAnswer = (a) => archive.record(a);
      return archive;
    };

    if (refresh !== undefined) return refreshArchive(argv, open(Archive.existing(resolve(refresh), software)), opts, safety);

    const archive = open(Archive.create(resolve(String(argv.out)), software));
    // The walk's frontier lives with the archive, so that an interrupted archive resumes.
    if (resolved(argv, 'state').source === 'default') argv.state = `sqlite:${resolve(archive.root, '.anwc', 'state.sqlite')}`;
    const maxDepth = resolved(argv, 'depth').value as number;
    const activity = actionsActivity('archive', [depthConstraint(maxDepth + 1), ...safety], [archivePage(archive, { maxDepth })], quiet);
    let store: Store | undefined;
    let failed = true;
    try {
      const ran = await walkCommand(argv, activity, urls, opts, 'archive');
      store = ran.store;
      failed = false;
      return walkExit(ran);
    } finally {
      await store?.close();
      await closeArchive(archive, Boolean(argv.json), failed);
    }
  }),
};

async function refreshArchive(argv: Record<string, unknown>, archive: Archive, opts: ReturnType<typeof walkRunOptionsFrom>, safety: ReturnType<typeof safetyConstraints>): Promise<number> {
  const entries = archive.entries();
  if (entries.length === 0) throw new UserError('the archive holds no page yet', { value: archive.root, fix: 'run anwc archive URL --out DIR first' });
  opts.validators = (url) => {
    const e = archive.entry(url);
    return e && { etag: e.etag, lastModified: e.lastModified };
  };
  const stored = new Map<string, StoreResult>();
  const activity = actionsActivity('archive-refresh', safety, [archivePage(archive, { maxDepth: 0, follow: false, onStored: (u, r) => stored.set(u, r) })], quiet);
  let interrupted = false;
  let failed = true;
  const changes: Change[] = [];
  try {
    const { report, store } = await walkCommand(argv, activity, entries.map((e) => e.url), opts, 'refresh');
    interrupted = report.stop === 'interrupted';
    try {
      for (const e of entries) changes.push({ url: e.url, ...(await changeOf(e.url, stored.get(e.url), store)) });
    } finally {
      await store.close();
    }
    failed = false;
  } finally {
    await closeArchive(archive, false, failed);
  }
  if (argv.json) {
    process.stdout.write(`${JSON.stringify({ archive: archive.root, changes }, null, 2)}\n`);
  } else {
    for (const c of changes) if (c.change !== 'unchanged') process.stdout.write(`${c.change}\t${c.url}${c.detail ? `\t${c.detail}` : ''}\n`);
  }
  const counts = new Map<string, number>();
  for (const c of changes) counts.set(c.change, (counts.get(c.change) ?? 0) + 1);
  process.stderr.write(`anwc: refreshed ${copies(entries.length)}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}\n`);
  if (interrupted) return EXIT.INTERRUPTED;
  const gone = counts.get('gone') ?? 0;
  if (gone > 0) process.stderr.write(`anwc: ${gone === 1 ? '1 copy is' : `${gone} copies are`} gone (404 or 410 now); the archive keeps ${gone === 1 ? 'it' : 'them'} as they were\n`);
  const unchecked = uncheckedLine(changes);
  if (unchecked) process.stderr.write(`${unchecked}\n`);
  return gone > 0 || unchecked ? EXIT.PROBLEMS : EXIT.OK;
}

const copies = (n: number): string => `${n} cop${n === 1 ? 'y' : 'ies'}`;

/** Why a copy could not be checked, with what to do about it. */
const CANNOT_CHECK = {
  address: 'refused by the address policy (give the same --resolve HOST:ADDRESS or --allow-private as the archive run)',
  dns: 'a host name that did not resolve (give the same --resolve HOST:ADDRESS as the archive run, if it had one)',
  scope: 'outside this run\'s scope (give the same --hosts as the archive run)',
  robots: 'disallowed by robots.txt now',
  robotsUnreached: 'robots.txt could not be had, so no page of its site was asked (refresh again later)',
  server: 'no usable answer from the server (refresh again later)',
  unreached: 'not reached before the run ended (refresh again)',
} as const;

type Change = { url: string; change: string; detail?: string; cause?: keyof typeof CANNOT_CHECK };

/** One line for the copies a refresh could not check, grouped by cause, or undefined when it checked them all. */
function uncheckedLine(changes: readonly Change[]): string | undefined {
  const by = new Map<keyof typeof CANNOT_CHECK, number>();
  for (const c of changes) if (c.cause) by.set(c.cause, (by.get(c.cause) ?? 0) + 1);
  if (by.size === 0) return undefined;
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  return `anwc: ${copies(total)} could not be checked: ${[...by].map(([cause, n]) => `${n} ${CANNOT_CHECK[cause]}`).join('; ')}`;
}

/** What a refresh found for one copy, from what the walk stored about its URL. */
async function changeOf(url: string, result: StoreResult | undefined, store: Store): Promise<Omit<Change, 'url'>> {
  if (result) return { change: result === 'same' ? 'unchanged' : 'changed' };
  const o = (await store.linkByUrl(url))?.outcome;
  const d = o?.detail ?? {};
  switch (o?.kind) {
    case 'not-modified':
      return { change: 'unchanged' };
    case 'http-error':
      return d.status === 404 || d.status === 410 ? { change: 'gone', detail: `HTTP ${String(d.status)}` } : { change: 'error', detail: `HTTP ${String(d.status)}`, cause: 'server' };
    case 'redirected':
      return { change: 'moved', detail: String(d.to) };
    case 'failed':
      return { change: 'error', detail: String(d.failure), cause: d.failure === 'dns' ? 'dns' : 'server' };
    case 'robots':
      // A robots.txt that did not answer (a server down, a 5xx) says when to ask again; a rule that said no does not.
      return d.retryAt !== undefined || d.failures !== undefined
        ? { change: 'not checked', detail: String(d.reason), cause: 'robotsUnreached' }
        : { change: 'disallowed', detail: 'robots.txt', cause: 'robots' };
    case 'refused':
    case 'rejected':
      return { change: 'skipped', detail: String(d.reason ?? d.constraint ?? ''), cause: d.reason === 'address-refused' ? 'address' : 'scope' };
    default:
      return { change: 'not checked', cause: 'unreached' };
  }
}

/**
 * The copies remapped, the header table compacted, the index rebuilt: whatever stopped the walk,
 * what was fetched is kept. After a failed run (a full disk, most likely) a failure here is not
 * reported over the first one; the next run closes the archive again.
 */
async function closeArchive(archive: Archive, json: boolean, failed: boolean): Promise<void> {
  let pages: number;
  try {
    pages = archive.remapAll();
    await archive.finish();
  } catch (err) {
    if (failed) return;
    throw err;
  }
  const files = archive.entries().length;
  // The WARC is named only when it is on disk: a run that fetched nothing wrote none.
  const warc = existsSync(archive.warcFile) ? archive.warcFile : null;
  const written = warc ? `WARC ${warc}, index ${archive.cdxjFile}` : 'no WARC written (no page was fetched)';
  process.stderr.write(`anwc: archive in ${archive.root}: ${files} file(s), ${pages} HTML page(s) remapped; ${written}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ archive: archive.root, files, htmlPages: pages, warc, cdxj: warc && archive.cdxjFile })}\n`);
}
