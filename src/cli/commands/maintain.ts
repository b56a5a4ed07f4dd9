import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { ABOUT } from './about.js';
import { basename, dirname, extname, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { UserError } from '../../errors.js';
import { maintainPage, type TestedDoc } from '../../maintain/action.js';
import { avoidVerdict, parseAvoid, serializeAvoid, type AvoidEntry, type AvoidParseError } from '../../maintain/avoid.js';
import { parseSites, serializeSites, type SiteEntry } from '../../maintain/sites.js';
import { parseInstructions, parseInstructionsJson, type InstructionTask } from '../../maintain/instructions.js';
import { noticeFor, type NoticePrefs } from '../../maintain/notice.js';
import { buildReport, checksToKeep, linkState, LINK_STATES, sinceLast, STATE_LABELS, totals, type MaintenanceReport, type StoredOutcome } from '../../maintain/report.js';
import { mayWalk, type MaintenanceTask, type TraversalType } from '../../maintain/task.js';
import { indexHtml, indexJson, indexJunit, indexMarkdown, indexSarif, statusText } from '../../maintain/writers.js';
import { VERSION } from '../../version.js';
import { actionsActivity } from '../../walk/actions/activity.js';
import type { FetchResult } from '../../walk/fetch-step.js';
import type { RobotsRules } from '../../web/robots.js';
import type { WalkReport } from '../../walk/walk.js';
import type { Link } from '../../store/store.js';
import { constraint } from '../../walk/constraints/constraint.js';
import { looksBinaryPath } from '../../walk/constraints/builtin.js';
import { openStore } from '../../store/open.js';
import { hostOf, normalizeUrl } from '../../web/url.js';
import { EXIT } from '../exit.js';
import { resolved, withOptions } from '../options.js';
import { checkOutFormats, prepareOuts, writeWhole } from '../out-file.js';
import { checkWebhook, postWebhook, sendMail, type WebhookPolicy } from '../notify.js';
import { revalidateNodes } from '../revalidate-nodes.js';
import { learnSites, recordSites, seedSites, type LearnedSite } from '../maintain-sites.js';
import { robotsToken } from '../../web/user-agent.js';
import { handler } from '../run.js';
import { safetyConstraints, walkCommand, walkRunOptionsFrom, WALK_OPTIONS } from '../walk-run.js';
import { fetcherOptionsFrom } from '../web-options.js';

/** `anwc maintain`: MOMspider's link maintenance (seed paper 004) for one task given by flags. */

const FORMATS = ['.html', '.json', '.xml', '.sarif', '.md'] as const;
/** RFC 9309 §2.4: robots.txt rules should not be trusted longer than a day, unless SitesCheck says otherwise. */
const DEFAULT_SITES_CHECK = 1;
/**
 * The checked site is never given up: after errors its host is asked more slowly, at most this far
 * apart, and every link is tested (or --max-time ends the run, and each link left says why).
 */
const CHECK_BACKOFF_MAX_MS = 60_000;

export const maintainCommand: CommandModule = {
  ...ABOUT.maintain,
  builder: (y) =>
    withOptions(y.positional('instructions', { type: 'string', describe: 'A MOMspider instruction file (the paper\'s appendix A): global files, then <Site, <Tree and <Owner tasks; or the same as .json' }), 'tree', 'site', 'owner', 'name', 'nodes', 'db', 'changed', 'expired', 'avoid', 'sites', 'sites-check', 'email', 'smtp', 'webhook', ...WALK_OPTIONS)
      .option('out', { type: 'string', array: true, describe: `Write the index here, the format by the extension: .html (MOMspider's index; the one before is kept as NAME.prev.html), .json, .xml (JUnit), .sarif; repeat for several` })
      .example('anwc maintain --tree https://example.org/docs/ --out docs-index.html --out docs.sarif', 'a document tree: pages outside /docs/ are leaves')
      .example('anwc maintain tasks.mom', 'every task of an instruction file, each index at its IndexFile; a URL several tasks reach is asked once')
      .example('anwc maintain --owner https://example.org/~ann/ --name Ann --changed 3 --expired 7 --out ann.html', 'the documents whose Owner is Ann')
      .example('anwc maintain --nodes', 'revalidate the pages the stored crawler nodes came from; anwc pick then leaves out the gone ones')
      .example("anwc maintain --site http://alpha.test/ --resolve '*.test:127.0.0.1' --delay 0", 'a local test site; broken and moved links on stdout')
      .epilogue('Leaves (documents the traversal does not enter) are tested with HEAD, and with GET when a server refuses HEAD (405, 501). Each task\'s results are kept in --db, so the next run reports what changed since. Exit code 1 when a link is broken (with --nodes: when a node\'s source is gone or changed).'),
  handler: handler(async (argv: Record<string, unknown>) => {
    if (argv.nodes) {
      const other = ['instructions', 'tree', 'site', 'owner', 'out'].filter((k) => argv[k] !== undefined);
      if (other.length > 0) throw new UserError(`--nodes revalidates the stored nodes' sources, not a task: --${other[0]} given too`, { fix: 'run anwc maintain --nodes alone, and the tasks in another run' });
      return revalidateNodes(argv);
    }
    const outs = ((argv.out as string[] | undefined) ?? []).map(String);
    checkOutFormats(outs, FORMATS, 'index');
    const plan = planFrom(argv, outs);
    checkMail(plan, resolved(argv, 'smtp').value as string | undefined);
    prepareOuts(plan.tasks.flatMap((t) => t.outs), '--out (or a task\'s IndexFile)');
    const { resolve: mappings, allowPrivate } = fetcherOptionsFrom(argv);
    const hookPolicy: WebhookPolicy = { resolve: mappings, allowPrivate };
    if (argv.webhook !== undefined) await checkWebhook(String(argv.webhook), hookPolicy);
    const now = Date.now();
    const avoid = plan.avoidFiles.flatMap((f) => f.entries);
    const listedSites = plan.sitesFiles.flatMap((f) => f.entries);
    const learned: LearnedSite[] = [];
    const leaf = (url: string) => avoidVerdict(url, avoid, now) === 'leaf';
    // One run, one set of answers: a URL that several tasks reach is asked once.
    const shared = new Map<string, FetchResult>();
    const robots = new Map<string, RobotsRules>();
    const reports: MaintenanceReport[] = [];
    let interrupted = false;
    // Tasks whose top document could not be walked: their reports say nothing about the site.
    let unwalked = 0;
    const undelivered: string[] = [];
    for (const { task, outs: files, notice } of plan.tasks) {
      const opts = walkRunOptionsFrom(argv, 'bfs');
      opts.fetcher.accept = ['*/*'];
      opts.fetcher.binary = true;
      opts.shared = shared;
      opts.robots = robots;
      // The site checked is slowed, never given up; a host it merely links to may be, its links then untested and why.
      opts.politeness.keepHosts = new Set([hostOf(task.top)]);
      opts.politeness.backoffMaxMs = CHECK_BACKOFF_MAX_MS;
      const constraints = [...safetyConstraints(argv, opts), constraint('not-avoided', 'uri', (c) => avoidVerdict(c.url.href, avoid, now) !== 'avoid')];
      const tested: TestedDoc[] = [];
      const activity = actionsActivity(`maintain-${task.type}`, constraints, [maintainPage(task, (d) => tested.push(d), leaf)], { text: () => undefined, html: () => undefined });
      activity.method = (link) => (mayWalk(task, link.url) && !leaf(link.url) && !looksBinaryPath(new URL(link.url)) ? 'GET' : 'HEAD');
      const { report: run, store, rootsNotWalked } = await walkCommand(argv, activity, [task.top], opts, `maintain ${task.name}`, (state) => seedSites(state, listedSites, now));
      unwalked += rootsNotWalked.length;
      const stored = new Map<string, StoredOutcome>();
      try {
        const urls = new Set([task.top, ...tested.flatMap((d) => [d.url, ...d.refs.map((r) => r.url)])]);
        for (const url of urls) {
          const link = await store.linkByUrl(url);
          if (link && (link.status === 'pending' || link.status === 'leased')) stored.set(url, { kind: 'not-tested', detail: { reason: untestedReason(run, link) } });
          else if (link?.outcome) stored.set(url, { kind: link.outcome.kind, detail: link.outcome.detail ?? {} });
          // A reference the walk met but never stored was dropped by the scope (--hosts, the URL checks).
          else if (!link && run.stop !== 'interrupted') stored.set(url, { kind: 'refused', detail: { reason: 'out-of-scope' } });
        }
        if (plan.ownSites) learned.push(...(await learnSites(store, urls, robotsToken(opts.fetcher.userAgent, opts.fetcher.contact), now, plan.sitesCheckDays)));
      } finally {
        await store.close();
      }
      const report = buildReport(task, tested, stored, now);
      interrupted ||= run.stop === 'interrupted';
      // An interrupted run saw part of the infostructure: kept, it would make the rest look dropped next time.
      if (!interrupted) await compareWithLast(argv, report, now);
      reports.push(report);
      writeIndexes(report, interrupted ? files.map(partialName) : files);
      undelivered.push(...(await deliver(argv, report, notice, hookPolicy)));
      if (interrupted) break;
    }
    const own = <T extends { path?: string }>(files: T[], path: string | undefined) => files.find((f) => f.path === path);
    const ownSites = own(plan.sitesFiles, plan.ownSites);
    const ownAvoid = own(plan.avoidFiles, plan.ownAvoid);
    if (ownSites) recordSites(learned, ownSites.entries, ownAvoid?.entries);
    for (const f of plan.avoidFiles) if (f.path && (existsSync(f.path) || f === ownAvoid && f.entries.length > 0)) writeWhole(f.path, serializeAvoid(f.entries, now), 'the avoid file');
    for (const f of plan.sitesFiles) if (existsSync(f.path) || f === ownSites && f.entries.length > 0) writeWhole(f.path, serializeSites(f.entries, now), 'the sites file');
    if (argv.json) process.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
    let broken = 0;
    for (const report of reports) {
      const i = report.interesting;
      broken += i.broken.length;
      if (!argv.json) {
        const tag = reports.length > 1 ? `${report.task.name}\t` : '';
        // One line a link; the pages that hold it are counted here and listed in --json and the index.
        const pages = (url: string) => {
          const from = report.referrers[url] ?? [];
          return from.length === 0 ? 'the top document' : from.length === 1 ? `on ${from[0]}` : `on ${from.length} pages, e.g. ${from[0]}`;
        };
        for (const b of i.broken) process.stdout.write(`${tag}broken\t${b.check.url}\t${b.check.detail ?? b.check.status}\t${pages(b.check.url)}\n`);
        for (const m of i.moved) process.stdout.write(`${tag}moved\t${m.url}\t${m.movedTo ?? ''}\n`);
        for (const c of Object.values(report.checks)) {
          const state = linkState(c);
          if (state === 'refused' || state === 'not-tested') process.stdout.write(`${tag}${state}\t${c.url}\t${statusText(c)}\t${pages(c.url)}\n`);
        }
        for (const c of i.modified) process.stdout.write(`${tag}modified\t${c.url}\t${c.lastModified ?? ''}\n`);
        for (const c of i.expiring) process.stdout.write(`${tag}expiring\t${c.url}\t${c.expires ?? ''}\n`);
        for (const c of report.sinceLast?.changes ?? []) process.stdout.write(`${tag}since-last\t${c.url}\t${c.was}\t${c.now}\n`);
      }
      const since = report.sinceLast ? `; ${report.sinceLast.changes.length} change(s) since the last run (${report.sinceLast.previous})` : '; no earlier run to compare with';
      const t = totals(report);
      const states = LINK_STATES.map((s) => `${t[s]} ${s === 'refused' || s === 'excluded' ? s : STATE_LABELS[s]}`).join(', ');
      process.stderr.write(`anwc: ${report.task.name}: ${report.docs.length} document(s), ${Object.keys(report.checks).length} link(s): ${states}; ${t.modified} modified, ${t.expiring} expiring${since}\n`);
    }
    for (const line of undelivered) process.stderr.write(`anwc: ${line}\n`);
    if (interrupted) return EXIT.INTERRUPTED;
    if (undelivered.length > 0) return EXIT.INTERNAL;
    // A site not checked whole is no all-clear, whatever was found in the part that was.
    const untested = reports.reduce((n, r) => n + totals(r)['not-tested'], 0);
    if (untested > 0) {
      process.stderr.write(`anwc: ${untested} link(s) not tested (each says why${argv.json ? '' : ' on its not-tested line'}); rerun with a longer --max-time, or once the failing hosts answer again: the checks made are kept\n`);
    }
    return broken > 0 || unwalked > 0 || untested > 0 ? EXIT.PROBLEMS : EXIT.OK;
  }),
};

/** Why a link of the task was left untested when its run ended: what stopped the run, and the host's errors. */
function untestedReason(run: WalkReport, link: Link): string {
  const why = run.stop === 'max-time' ? 'the time limit (--max-time) came first'
    : run.stop === 'max-pages' ? 'the page budget (--max-pages) came first'
    : run.stop === 'interrupted' ? 'the run was interrupted'
    : 'the run ended before it';
  const errors = run.failing[link.host];
  const last = link.attempts > 0 && link.outcome ? `, ${link.attempts} tr${link.attempts === 1 ? 'y' : 'ies'} failed (${link.outcome.kind === 'http-error' ? `HTTP ${String(link.outcome.detail?.status)}` : String(link.outcome.detail?.failure ?? link.outcome.kind)})` : '';
  return `${errors ? `host failing (${errors} errors in a row): ` : ''}${why}${last}`;
}

interface Notice {
  to?: string;
  prefs: NoticePrefs;
  /** The instruction file and line of the task that gave the address; none for --email. */
  at?: { file: string; line: number };
}

interface Plan {
  tasks: { task: MaintenanceTask; outs: string[]; notice: Notice }[];
  avoidFiles: { path?: string; entries: AvoidEntry[] }[];
  /** The user's own avoid file (AvoidFile, --avoid), where robots.txt rules go. */
  ownAvoid?: string;
  sitesFiles: { path: string; entries: SiteEntry[] }[];
  /** The user's own sites file (SitesFile, --sites), where the sites read this run go. */
  ownSites?: string;
  sitesCheckDays: number;
}

/** The tasks to run and the avoid files in force: from an instruction file, or one task from the flags. */
function planFrom(argv: Record<string, unknown>, outs: string[]): Plan {
  const given = argv.instructions as string | undefined;
  const avoidFlag = argv.avoid === undefined ? undefined : resolve(String(argv.avoid));
  const sitesFlag = argv.sites === undefined ? undefined : resolve(String(argv.sites));
  const checkFlag = resolved(argv, 'sites-check').value as number | undefined;
  if (given === undefined) {
    const task = taskFrom(argv);
    const email = argv.email === undefined ? undefined : String(argv.email);
    const prefs = { broken: true, redirected: true, changed: task.changedDays !== undefined, expired: task.expiredDays !== undefined };
    return {
      tasks: [{ task, outs, notice: { ...(email ? { to: email } : {}), prefs } }],
      avoidFiles: avoidFlag ? [readAvoid(avoidFlag)] : [], ...(avoidFlag ? { ownAvoid: avoidFlag } : {}),
      sitesFiles: sitesFlag ? [readSites(sitesFlag)] : [], ...(sitesFlag ? { ownSites: sitesFlag } : {}),
      sitesCheckDays: checkFlag ?? DEFAULT_SITES_CHECK,
    };
  }
  if (['tree', 'site', 'owner'].some((t) => argv[t] !== undefined)) {
    throw new UserError('an instruction file and a task flag together', { fix: 'give the tasks in the file, or one task with --tree, --site or --owner' });
  }
  if (outs.length > 0) {
    throw new UserError('--out with an instruction file: each task writes the IndexFile the file gives it', { value: outs.join(' '), fix: 'set IndexFile in each task (its extension picks the format), or run one task with --site, --tree or --owner and --out' });
  }
  let text: string;
  try {
    text = readFileSync(given, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read ${given}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { value: given, fix: 'give the path of a MOMspider instruction file' });
  }
  const ins = extname(given).toLowerCase() === '.json' ? parseInstructionsJson(text, given) : parseInstructions(text, given);
  const here = dirname(resolve(given));
  const at = (p: string) => resolve(here, p);
  const defined = (...ps: (string | undefined)[]) => ps.filter((p): p is string => p !== undefined);
  const ownAvoid = avoidFlag ?? (ins.avoidFile === undefined ? undefined : at(ins.avoidFile));
  const ownSites = sitesFlag ?? (ins.sitesFile === undefined ? undefined : at(ins.sitesFile));
  return {
    tasks: ins.tasks.map((t) => ({ task: { ...t, top: normalTop(t.top) }, outs: t.indexFile ? [at(t.indexFile)] : [], notice: noticeOf(t, given) })),
    avoidFiles: [...new Set(defined(ins.systemAvoid && at(ins.systemAvoid), ins.avoidFile && at(ins.avoidFile), avoidFlag))].map(readAvoid),
    ...(ownAvoid ? { ownAvoid } : {}),
    sitesFiles: [...new Set(defined(ins.systemSites && at(ins.systemSites), ins.sitesFile && at(ins.sitesFile), sitesFlag))].map(readSites),
    ...(ownSites ? { ownSites } : {}),
    sitesCheckDays: checkFlag ?? ins.sitesCheckDays ?? DEFAULT_SITES_CHECK,
  };
}

/** What a task of the instruction file asks to be told, and whom. */
function noticeOf(t: InstructionTask, file: string): Notice {
  const prefs = { broken: t.emailBroken, redirected: t.emailRedirected, changed: t.changedDays !== undefined, expired: t.expiredDays !== undefined };
  return { ...(t.emailAddress ? { to: t.emailAddress } : {}), prefs, at: { file, line: t.line } };
}

/** A notice to mail needs a server to mail it through: known before the first page is fetched. */
function checkMail(plan: Plan, smtp: string | undefined): void {
  if (smtp) return;
  const mailed = plan.tasks.find((t) => t.notice.to !== undefined);
  if (!mailed) return;
  const { to, at } = mailed.notice;
  const send = 'give --smtp smtp://host:port (or ANWC_SMTP)';
  if (!at) throw new UserError(`--email ${to} needs an SMTP server to send the notice through`, { fix: `${send}, or drop --email` });
  throw new UserError(`task ${mailed.task.name} mails its notice to ${to}, but no SMTP server is given to send it through`, { ...at, fix: `${send}, or drop its EmailAddress` });
}

/** Sets what changed since the task's last run, from the store, and keeps this run's results there for the next. */
async function compareWithLast(argv: Record<string, unknown>, report: MaintenanceReport, now: number): Promise<void> {
  const store = await openStore(String(resolved(argv, 'db').value));
  try {
    const scope = `task:${report.task.name}`;
    const since = sinceLast(report, await store.urlChecks(scope));
    if (since) report.sinceLast = since;
    await store.saveUrlChecks(scope, checksToKeep(report, now), true);
  } finally {
    await store.close();
  }
}

/** The task's notice by mail and its report by webhook, as asked; the lines of what could not be delivered. */
async function deliver(argv: Record<string, unknown>, report: MaintenanceReport, notice: Notice, hookPolicy: WebhookPolicy): Promise<string[]> {
  const failed: string[] = [];
  const smtp = resolved(argv, 'smtp').value as string | undefined;
  const mail = notice.to ? noticeFor(report, notice.prefs) : undefined;
  // checkMail made sure of the server before any work.
  if (mail && notice.to && smtp) {
    const from = (resolved(argv, 'from').value as string | undefined) ?? 'anwc@localhost';
    const err = await sendMail(smtp, { from, to: notice.to, ...mail });
    if (err) failed.push(err);
    else process.stderr.write(`anwc: ${report.task.name}: notice mailed to ${notice.to}\n`);
  }
  if (argv.webhook !== undefined) {
    const err = await postWebhook(String(argv.webhook), report, hookPolicy);
    if (err) failed.push(err);
  }
  return failed;
}

/** The Top URL as the frontier spells it, so that the report finds it. */
function normalTop(url: string): string {
  const n = normalizeUrl(url);
  return n.ok ? n.url : url;
}

/** An avoid or sites file; one that does not exist yet is empty (MOMspider writes it). A bad line is the user's to fix. */
function readEntries<T>(path: string, parse: (text: string) => { entries: T[]; errors: AvoidParseError[] }, form: string): { path: string; entries: T[] } {
  if (!existsSync(path)) return { path, entries: [] };
  const { entries, errors } = parse(readFileSync(path, 'utf8'));
  const e = errors[0];
  if (e) throw new UserError(`${path}:${e.line}:${e.col}: ${e.message}`, { fix: `write ${form}, one a line` });
  return { path, entries };
}

const readAvoid = (path: string) => readEntries(path, parseAvoid, 'Avoid|Leaf URLprefix [date|*]');
const readSites = (path: string) => readEntries(path, parseSites, 'Site host:port [date|*]');

/**
 * Where an interrupted run writes an index: beside the complete one, which it must not replace (the
 * next run would keep the part as NAME.prev.html and lose the whole).
 */
export function partialName(file: string): string {
  const ext = extname(file);
  return `${file.slice(0, file.length - ext.length)}.partial${ext}`;
}

function writeIndexes(report: MaintenanceReport, files: string[]): void {
  const options = [`${report.task.type} ${report.task.top}`, `changed ${report.task.changedDays ?? '-'}`, `expired ${report.task.expiredDays ?? '-'}`].join(', ');
  for (const file of files) {
    const ext = extname(file).toLowerCase();
    let previous: string | undefined;
    if (ext === '.html' && existsSync(file)) {
      previous = file.replace(/\.html$/i, '.prev.html');
      copyFileSync(file, previous);
    }
    const text = ext === '.html' ? indexHtml(report, { previous: previous && basename(previous), options })
      : ext === '.json' ? indexJson(report) : ext === '.xml' ? indexJunit(report) : ext === '.md' ? indexMarkdown(report) : indexSarif(report, VERSION);
    writeWhole(file, text, '--out');
    process.stderr.write(`anwc: index written to ${file}\n`);
  }
}

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
