import type { MaintenanceReport } from './report.js';

/**
 * The notice MOMspider mails an owner at the end of a task (section 5.1): the interesting items
 * the task's options ask for, or nothing when there is none. Pure: the CLI sends it.
 */

export interface NoticePrefs {
  broken: boolean;
  redirected: boolean;
  /** Modified and expiring items are asked for by the task's EmailChanged / EmailExpired days. */
  changed: boolean;
  expired: boolean;
}

export function noticeFor(r: MaintenanceReport, prefs: NoticePrefs): { subject: string; text: string } | undefined {
  const i = r.interesting;
  const parts: [string, string[]][] = [];
  if (prefs.broken && i.broken.length) parts.push(['Broken', i.broken.map((b) => `${b.check.url}  (${b.check.detail ?? b.check.status ?? '?'}; linked from ${b.from.join(', ') || r.task.top})`)]);
  if (prefs.redirected && i.moved.length) parts.push(['Moved', i.moved.map((m) => `${m.url}  -> ${m.movedTo ?? '?'}`)]);
  if (prefs.changed && i.modified.length) parts.push([`Modified in the last ${r.task.changedDays} day(s)`, i.modified.map((m) => `${m.url}  (${m.lastModified})`)]);
  if (prefs.expired && i.expiring.length) parts.push([`Expiring in the next ${r.task.expiredDays} day(s)`, i.expiring.map((m) => `${m.url}  (${m.expires})`)]);
  const since = r.sinceLast?.changes ?? [];
  if (prefs.changed && since.length) parts.push([`Changed since the last run (${r.sinceLast!.previous})`, since.map((c) => `${c.url}  (${c.was} -> ${c.now})`)]);
  if (parts.length === 0) return undefined;
  const counts = parts.map(([title, items]) => `${items.length} ${title.split(' ')[0]!.toLowerCase()}`).join(', ');
  const text = [
    `anwc maintain, task ${r.task.name} (${r.task.type} from ${r.task.top}), ${r.made}:`,
    '',
    ...parts.flatMap(([title, items]) => [`${title} (${items.length}):`, ...items.map((x) => `  ${x}`), '']),
  ].join('\n');
  return { subject: `anwc maintain: ${r.task.name}: ${counts}`, text };
}
