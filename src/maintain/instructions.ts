import { UserError } from '../errors.js';
import { TRAVERSAL_TYPES, type MaintenanceTask, type TraversalType } from './task.js';

/**
 * MOMspider's instruction file, as appendix A of the paper prints it: global directives one a line
 * (`SystemAvoid PATH`, `SystemSites PATH`, `AvoidFile PATH`, `SitesFile PATH`, `SitesCheck DAYS`),
 * then tasks, each `<Site`, `<Tree` or `<Owner` on a line of its own, one `Key value` a line, and
 * `>` to close. Errors name file:line:col. Pure: paths are resolved by the caller.
 */

export interface InstructionTask extends MaintenanceTask {
  indexUrl?: string;
  indexFile?: string;
  emailAddress?: string;
  emailBroken: boolean;
  emailRedirected: boolean;
  /** Where the task starts in the file, for messages. */
  line: number;
}

export interface Instructions {
  systemAvoid?: string;
  systemSites?: string;
  avoidFile?: string;
  sitesFile?: string;
  sitesCheckDays?: number;
  tasks: InstructionTask[];
}

const GLOBAL: Record<string, keyof Omit<Instructions, 'tasks'>> = {
  systemavoid: 'systemAvoid', systemsites: 'systemSites', avoidfile: 'avoidFile', sitesfile: 'sitesFile', sitescheck: 'sitesCheckDays',
};
const TASK_KEYS = ['name', 'topurl', 'indexurl', 'indexfile', 'indextitle', 'emailaddress', 'emailbroken', 'emailredirected', 'emailchanged', 'emailexpired'];
const FLAGS = new Set(['emailbroken', 'emailredirected']);
const NUMBERS = new Set(['sitescheck', 'emailchanged', 'emailexpired']);

export function parseInstructions(text: string, file: string): Instructions {
  const out: Instructions = { tasks: [] };
  let task: (Partial<InstructionTask> & { type: TraversalType; line: number }) | undefined;
  const fail = (line: number, col: number, message: string, fix: string, value?: string): never => {
    throw new UserError(`${file}:${line}:${col}: ${message}`, { ...(value === undefined ? {} : { value }), fix });
  };
  const lines = text.split(/\r\n|\n|\r/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const col = raw.length - raw.trimStart().length + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const open = /^<(\w+)\s*$/.exec(s);
    if (open) {
      if (task) fail(line, col, `a task opens inside the task of line ${task.line}`, 'close that task with > on a line of its own first');
      const type = open[1]!.toLowerCase() as TraversalType;
      if (!TRAVERSAL_TYPES.includes(type)) fail(line, col + 1, `no traversal type ${open[1]}`, 'open a task with <Site, <Tree or <Owner', open[1]);
      task = { type, line, emailBroken: false, emailRedirected: false };
      return;
    }
    if (s === '>') {
      if (!task) fail(line, col, 'a > with no task open', 'delete it, or open a task above with <Site, <Tree or <Owner');
      out.tasks.push(finish(task!, fail));
      task = undefined;
      return;
    }
    const m = /^(\S+)(?:\s+(.*))?$/.exec(s)!;
    const key = m[1]!.toLowerCase();
    const value = (m[2] ?? '').trim();
    const valueCol = col + raw.trimStart().indexOf(m[2] ?? '');
    const known = task ? TASK_KEYS : Object.keys(GLOBAL);
    if (!known.includes(key)) {
      fail(line, col, `${task ? 'a task has no' : 'no directive'} ${m[1]}`, `use one of ${(task ? ['Name', 'TopURL', 'IndexURL', 'IndexFile', 'IndexTitle', 'EmailAddress', 'EmailBroken', 'EmailRedirected', 'EmailChanged', 'EmailExpired'] : ['SystemAvoid', 'SystemSites', 'AvoidFile', 'SitesFile', 'SitesCheck']).join(', ')}${task ? '' : ', or open a task with <Site, <Tree or <Owner'}`, m[1]);
    }
    if (FLAGS.has(key)) {
      if (value !== '') fail(line, valueCol, `${m[1]} takes no value`, `write ${m[1]} alone on its line`, value);
      (task as Record<string, unknown>)[key === 'emailbroken' ? 'emailBroken' : 'emailRedirected'] = true;
      return;
    }
    if (value === '') fail(line, col + m[1]!.length, `${m[1]} needs a value`, `write ${m[1]} VALUE`);
    let v: string | number = value;
    if (NUMBERS.has(key)) {
      v = Number(value);
      if (!/^\d+$/.test(value)) fail(line, valueCol, `${m[1]} takes a whole number of days`, `write e.g. ${m[1]} 7`, value);
    }
    if (!task) {
      (out as unknown as Record<string, unknown>)[GLOBAL[key]!] = v;
      return;
    }
    const field = ({ name: 'name', topurl: 'top', indexurl: 'indexUrl', indexfile: 'indexFile', indextitle: 'indexTitle', emailaddress: 'emailAddress', emailchanged: 'changedDays', emailexpired: 'expiredDays' } as Record<string, string>)[key]!;
    if (field === 'top') {
      try {
        const u = new URL(value);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
      } catch {
        fail(line, valueCol, `TopURL is not an http(s) URL`, 'write the full address, e.g. TopURL http://www.example.org/index.html', value);
      }
    }
    (task as Record<string, unknown>)[field] = v;
  });
  if (task) fail(task.line, 1, 'the task is never closed', 'end it with > on a line of its own');
  if (out.tasks.length === 0) fail(1, 1, 'no task', 'add a task: <Tree, Name, TopURL … and > to close');
  return out;
}

function finish(t: Partial<InstructionTask> & { type: TraversalType; line: number }, fail: (l: number, c: number, m: string, f: string) => never): InstructionTask {
  if (!t.name) fail(t.line, 1, 'the task has no Name', 'add a line Name NAME to it');
  if (!t.top) fail(t.line, 1, `task ${t.name} has no TopURL`, 'add a line TopURL http://… to it');
  return t as InstructionTask;
}
