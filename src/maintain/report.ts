import type { TestedDoc } from './action.js';
import type { UrlCheck } from '../store/store.js';
import type { MaintenanceTask } from './task.js';

/**
 * The result of a maintenance task (MOMspider's index, section 5.1): each document of the
 * infostructure with its references and what testing each one found, and the closing table of
 * interesting items: moved, broken, recently modified, soon expiring. Pure.
 */

export type RefKind = 'get' | 'query' | 'img' | 'frame' | 'link' | 'script' | 'other';

/** What testing a URL found. */
export interface Check {
  url: string;
  state: 'ok' | 'moved' | 'broken' | 'skipped' | 'unchecked';
  status?: number;
  /** Why it is broken or skipped: a failure kind (timeout, refused, dns…) or a rule. */
  detail?: string;
  movedTo?: string;
  title?: string;
  lastModified?: string;
  expires?: string;
  method?: 'GET' | 'HEAD';
}

export interface IndexedDoc {
  url: string;
  title: string;
  lastModified?: string;
  expires?: string;
  refs: { url: string; kind: RefKind; count: number }[];
}

export interface Interesting {
  moved: Check[];
  broken: { check: Check; from: string[] }[];
  modified: Check[];
  expiring: Check[];
}

/** A link whose check differs from the last run's: its state, or its Last-Modified; or it is new, or no longer linked. */
export interface Change {
  url: string;
  /** The state last time, or 'absent' when the last run did not meet the link. */
  was: string;
  /** The state now, or 'absent' when no document links to it any more. */
  now: string;
  wasLastModified?: string;
  lastModified?: string;
}

export interface SinceLast {
  /** When the last run checked (ISO time). */
  previous: string;
  changes: Change[];
}

export interface MaintenanceReport {
  task: MaintenanceTask;
  made: string;
  docs: IndexedDoc[];
  checks: Record<string, Check>;
  /** Every page of the infostructure that links to each URL, in the order they were met. */
  referrers: Record<string, string[]>;
  interesting: Interesting;
  /** What changed since the last run of the task, from the store; absent on the first run. */
  sinceLast?: SinceLast;
}

/** What the store said of a URL the action did not see (an error, a redirect elsewhere, a refusal). */
export interface StoredOutcome {
  kind: string;
  detail: Record<string, unknown>;
}

const DAY = 86_400_000;

/**
 * The one state a link ends in, as a person reads it: the check's own state, with a skip split
 * into a refusal by the run's settings or robots.txt (the fix is the user's) and an exclusion by
 * the task's scope or a constraint (as asked).
 */
export type LinkState = 'broken' | 'moved' | 'refused' | 'not-tested' | 'excluded' | 'ok';

/** In the order a report shows them: what needs fixing first. */
export const LINK_STATES: readonly LinkState[] = ['broken', 'moved', 'refused', 'not-tested', 'excluded', 'ok'];

export const STATE_LABELS: Record<LinkState, string> = {
  broken: 'broken', moved: 'moved', refused: 'refused (address policy or robots.txt)', 'not-tested': 'not tested', excluded: 'excluded by the scope', ok: 'ok',
};

export function linkState(c: Check): LinkState {
  switch (c.state) {
    case 'skipped':
      return c.detail === 'address-refused' || c.detail === 'robots.txt' ? 'refused' : 'excluded';
    case 'unchecked':
      return 'not-tested';
    default:
      return c.state;
  }
}

/** How many links end in each state, and how many of the ok ones are recently modified or soon expiring. */
export function totals(r: MaintenanceReport): Record<LinkState | 'modified' | 'expiring', number> {
  const t = { broken: 0, moved: 0, refused: 0, 'not-tested': 0, excluded: 0, ok: 0, modified: r.interesting.modified.length, expiring: r.interesting.expiring.length };
  for (const c of Object.values(r.checks)) t[linkState(c)]++;
  return t;
}

/** A page's other name: `dir/index.html` (or .htm) is the page `dir/` serves. */
function folderOf(url: string): string | undefined {
  const m = /^(.*\/)index\.html?$/i.exec(url);
  return m?.[1];
}

export function kindOf(tag: string, url: string): RefKind {
  if (tag === 'img' || tag === 'input' || tag === 'source') return 'img';
  if (tag === 'frame' || tag === 'iframe') return 'frame';
  if (tag === 'link') return 'link';
  if (tag === 'script') return 'script';
  if (tag === 'a' || tag === 'area') return new URL(url).search ? 'query' : 'get';
  return 'other';
}

/** What a link the server rate-limited needs: it was not found broken, only not checked. */
const RATE_LIMITED = 'the server asked for time; rerun later, or with a larger --delay';

export function checkOf(url: string, doc: TestedDoc | undefined, stored: StoredOutcome | undefined): Check {
  if (doc) {
    const base = {
      url, status: doc.status, method: doc.method, ...(doc.title ? { title: doc.title } : {}),
      ...(doc.lastModified ? { lastModified: doc.lastModified } : {}), ...(doc.expires ? { expires: doc.expires } : {}),
    };
    return doc.finalUrl !== doc.url ? { ...base, state: 'moved', movedTo: doc.finalUrl } : { ...base, state: 'ok' };
  }
  if (!stored) return { url, state: 'unchecked' };
  const d = stored.detail;
  switch (stored.kind) {
    case 'http-error':
      // 429 says nothing of the document, only that the server wants fewer requests.
      return Number(d.status) === 429
        ? { url, state: 'unchecked', status: 429, detail: `HTTP 429 (too many requests): ${RATE_LIMITED}` }
        : { url, state: 'broken', status: Number(d.status), detail: `HTTP ${String(d.status)}` };
    case 'failed':
      return { url, state: 'broken', detail: String(d.failure) };
    case 'redirected':
      return { url, state: 'moved', status: Number(d.status), movedTo: String(d.to) };
    case 'robots':
      // RFC 9309: a robots.txt that cannot be had means the host cannot be reached now; for a link
      // checker, broken. Unless it answered 429: the host is up and asks for time.
      if (d.retryAt === undefined) return { url, state: 'skipped', detail: 'robots.txt' };
      return Number(d.status) === 429
        ? { url, state: 'unchecked', detail: `robots.txt answered HTTP 429 (too many requests): ${RATE_LIMITED}` }
        : { url, state: 'broken', detail: `unreachable: ${String(d.reason)}` };
    case 'refused':
      return { url, state: 'skipped', detail: String(d.reason) };
    case 'rejected':
      return { url, state: 'skipped', detail: String(d.constraint) };
    case 'not-modified':
      return { url, state: 'ok', status: 304 };
    case 'not-tested':
      return { url, state: 'unchecked', detail: String(d.reason) };
    default:
      return { url, state: 'unchecked' };
  }
}

export function buildReport(
  task: MaintenanceTask, tested: readonly TestedDoc[], stored: ReadonlyMap<string, StoredOutcome>, now = Date.now(),
): MaintenanceReport {
  const byUrl = new Map(tested.map((d) => [d.url, d]));
  const checks: Record<string, Check> = {};
  const check = (url: string): Check => (checks[url] ??= checkOf(url, byUrl.get(url), stored.get(url)));
  const docs: IndexedDoc[] = [];
  const referrers = new Map<string, string[]>();
  check(task.top);
  for (const d of tested) {
    check(d.url);
    if (!d.member) continue;
    const refs = new Map<string, { url: string; kind: RefKind; count: number }>();
    for (const r of d.refs) {
      check(r.url);
      const known = refs.get(r.url);
      if (known) known.count++;
      else refs.set(r.url, { url: r.url, kind: kindOf(r.tag, r.url), count: 1 });
      const from = referrers.get(r.url) ?? [];
      if (!from.includes(d.url)) from.push(d.url);
      referrers.set(r.url, from);
    }
    docs.push({ url: d.url, title: d.title, ...(d.lastModified ? { lastModified: d.lastModified } : {}), ...(d.expires ? { expires: d.expires } : {}), refs: [...refs.values()] });
  }
  dropSameDocuments(docs);
  const all = Object.values(checks);
  // A date absent or unreadable, or days not asked for, make NaN, and NaN is within no bound.
  const within = (date: string | undefined, days: number | undefined, future: boolean) => {
    const age = future ? Date.parse(date ?? '') - now : now - Date.parse(date ?? '');
    return age >= 0 && age <= (days ?? NaN) * DAY;
  };
  const owned = new Set(docs.map((d) => d.url));
  return {
    task,
    made: new Date(now).toISOString(),
    docs,
    checks,
    referrers: Object.fromEntries(referrers),
    interesting: {
      moved: all.filter((c) => c.state === 'moved'),
      broken: all.filter((c) => c.state === 'broken').map((c) => ({ check: c, from: referrers.get(c.url) ?? [] })),
      modified: all.filter((c) => c.state === 'ok' && within(c.lastModified, task.changedDays, false)),
      expiring: all.filter((c) => c.state === 'ok' && owned.has(c.url) && within(c.expires, task.expiredDays, true)),
    },
  };
}

/**
 * `dir/index.html` and `dir/` met as two documents with the same title and references are one
 * page under two names: the index lists it once, as `dir/`. Links to either keep their own checks.
 */
function dropSameDocuments(docs: IndexedDoc[]): void {
  const byUrl = new Map(docs.map((d) => [d.url, d]));
  const key = (d: IndexedDoc) => JSON.stringify([d.title, d.refs.map((r) => [r.url, r.count])]);
  for (let i = docs.length - 1; i >= 0; i--) {
    const folder = folderOf(docs[i]!.url);
    const twin = folder === undefined ? undefined : byUrl.get(folder);
    if (twin && key(twin) === key(docs[i]!)) docs.splice(i, 1);
  }
}

/** The checks as the store keeps them for the next run. */
export function checksToKeep(r: MaintenanceReport, at: number): UrlCheck[] {
  return Object.values(r.checks).map((c) => ({
    url: c.url, state: c.state, status: c.status ?? null, detail: c.movedTo ?? c.detail ?? null,
    etag: null, lastModified: c.lastModified ?? null, checkedAt: at,
  }));
}

/**
 * What changed since the last run (MOMspider's "changed since"): links whose state differs, whose
 * Last-Modified moved, that are new, or that nothing links to any more. A link not tested this time
 * (unchecked) is not a change. Undefined when there is no last run to compare with.
 */
export function sinceLast(r: MaintenanceReport, previous: readonly UrlCheck[]): SinceLast | undefined {
  if (previous.length === 0) return undefined;
  const before = new Map(previous.map((c) => [c.url, c]));
  const changes: Change[] = [];
  for (const c of Object.values(r.checks)) {
    if (c.state === 'unchecked') continue;
    const b = before.get(c.url);
    if (!b) changes.push({ url: c.url, was: 'absent', now: c.state });
    else if (b.state !== c.state) changes.push({ url: c.url, was: b.state, now: c.state });
    else if (c.lastModified && b.lastModified && Date.parse(c.lastModified) !== Date.parse(b.lastModified)) {
      changes.push({ url: c.url, was: b.state, now: c.state, wasLastModified: b.lastModified, lastModified: c.lastModified });
    }
  }
  for (const b of previous) if (!(b.url in r.checks)) changes.push({ url: b.url, was: b.state, now: 'absent' });
  const last = previous.reduce((a, c) => Math.max(a, c.checkedAt), 0);
  return { previous: new Date(last).toISOString(), changes: changes.sort((x, y) => (x.url < y.url ? -1 : x.url > y.url ? 1 : 0)) };
}
