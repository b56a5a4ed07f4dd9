import { UserError } from '../errors.js';
import { readJson, type JsonNode } from '../walk/activity/json-reader.js';
import type { Pos } from '../walk/activity/spec.js';
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

type Fail = (line: number, col: number, message: string, fix: string, value?: string) => never;
type OpenTask = Partial<InstructionTask> & { type: TraversalType; line: number };

function failIn(file: string): Fail {
  return (line, col, message, fix, value) => {
    throw new UserError(`${file}:${line}:${col}: ${message}`, { ...(value === undefined ? {} : { value }), fix });
  };
}

export function parseInstructions(text: string, file: string): Instructions {
  const out: Instructions = { tasks: [] };
  let task: OpenTask | undefined;
  const fail = failIn(file);
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
    const value = (m[2] ?? '').trim();
    setKey(out, task, m[1]!, value, { line, col, valueCol: col + raw.trimStart().indexOf(m[2] ?? '') }, fail);
  });
  if (task) fail(task.line, 1, 'the task is never closed', 'end it with > on a line of its own');
  if (out.tasks.length === 0) fail(1, 1, 'no task', 'add a task: <Tree, Name, TopURL … and > to close');
  return out;
}


/**
 * One `Key value` of a task, or a global directive when no task is open, with the same checks
 * whichever form of the file it came in; `value` is '' for a flag.
 */
function setKey(out: Instructions, task: OpenTask | undefined, name: string, value: string, at: { line: number; col: number; valueCol: number }, fail: Fail): void {
  const { line, col, valueCol } = at;
  const key = name.toLowerCase();
  const known = task ? TASK_KEYS : Object.keys(GLOBAL);
  if (!known.includes(key)) {
    fail(line, col, `${task ? 'a task has no' : 'no directive'} ${name}`, `use one of ${(task ? ['Name', 'TopURL', 'IndexURL', 'IndexFile', 'IndexTitle', 'EmailAddress', 'EmailBroken', 'EmailRedirected', 'EmailChanged', 'EmailExpired'] : ['SystemAvoid', 'SystemSites', 'AvoidFile', 'SitesFile', 'SitesCheck']).join(', ')}${task ? '' : ', or open a task with <Site, <Tree or <Owner'}`, name);
  }
  if (FLAGS.has(key)) {
    if (value !== '') fail(line, valueCol, `${name} takes no value`, `write ${name} alone on its line`, value);
    (task as Record<string, unknown>)[key === 'emailbroken' ? 'emailBroken' : 'emailRedirected'] = true;
    return;
  }
  if (value === '') fail(line, col + name.length, `${name} needs a value`, `write ${name} VALUE`);
  let v: string | number = value;
  if (NUMBERS.has(key)) {
    v = Number(value);
    if (!/^\d+$/.test(value)) fail(line, valueCol, `${name} takes a whole number of days`, `write e.g. ${name} 7`, value);
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
}

function finish(t: OpenTask, fail: Fail): InstructionTask {
  if (!t.name) fail(t.line, 1, 'the task has no Name', 'add a line Name NAME to it');
  if (!t.top) fail(t.line, 1, `task ${t.name} has no TopURL`, 'add a line TopURL http://… to it');
  return t as InstructionTask;
}

/**
 * The same instructions as JSON: the directives and task keys are the paper's words (any case),
 * tasks an object keyed by their Name, each with its `type`:
 * `{"AvoidFile": "avoid.mom", "tasks": {"ICS": {"type": "Site", "TopURL": "http://…", "EmailBroken": true}}}`.
 */
export function parseInstructionsJson(text: string, file: string): Instructions {
  const fail = failIn(file);
  const root = readJson(text, file);
  const place = (at: Pos | undefined) => ({ line: at?.line ?? 1, col: at?.col ?? 1, valueCol: at?.col ?? 1 });
  if (root.kind !== 'object') return fail(1, 1, 'the instructions are not a JSON object', 'write {"AvoidFile": …, "tasks": {"NAME": {"type": "Tree", "TopURL": …}}}');
  const out: Instructions = { tasks: [] };
  for (const e of root.entries) {
    if (e.key.toLowerCase() !== 'tasks') {
      setKey(out, undefined, e.key, scalar(e.value, e.key, fail), { ...place(e.at), valueCol: e.value.at?.col ?? e.at.col }, fail);
      continue;
    }
    if (e.value.kind !== 'object') return fail(e.at.line, e.at.col, 'tasks is not an object', 'write "tasks": {"NAME": {"type": "Tree", "TopURL": …}}');
    for (const t of e.value.entries) {
      if (t.value.kind !== 'object') return fail(t.at.line, t.at.col, `task ${t.key} is not an object`, 'write {"type": "Tree", "TopURL": …}');
      const type = t.value.entries.find((x) => x.key.toLowerCase() === 'type');
      const kind = type && type.value.kind === 'string' ? type.value.value.toLowerCase() : '';
      if (!TRAVERSAL_TYPES.includes(kind as TraversalType)) {
        const at = type?.value.at ?? t.at;
        return fail(at.line, at.col, type ? `no traversal type ${kind}` : `task ${t.key} has no type`, 'give "type": "Site", "Tree" or "Owner"');
      }
      const task: OpenTask = { type: kind as TraversalType, line: t.at.line, emailBroken: false, emailRedirected: false };
      setKey(out, task, 'Name', t.key, place(t.at), fail);
      for (const x of t.value.entries) {
        if (x === type) continue;
        if (x.value.kind === 'symbol' && x.value.value === 'nil' && FLAGS.has(x.key.toLowerCase())) continue;
        setKey(out, task, x.key, scalar(x.value, x.key, fail), { ...place(x.at), valueCol: x.value.at?.col ?? x.at.col }, fail);
      }
      out.tasks.push(finish(task, fail));
    }
  }
  if (out.tasks.length === 0) fail(1, 1, 'no task', 'add "tasks": {"NAME": {"type": "Tree", "TopURL": …}}');
  return out;
}

/** A JSON value as the line form writes it: a flag's true is the key alone, numbers as digits. */
function scalar(v: JsonNode, key: string, fail: Fail): string {
  const at = v.at ?? { line: 1, col: 1 };
  if (v.kind === 'string') return v.value;
  if (v.kind === 'number') return String(v.value);
  if (v.kind === 'symbol' && v.value === 't') return '';
  return fail(at.line, at.col, `${key} takes a string, a number of days, or true`, 'write it as the paper does, e.g. "EmailChanged": 3');
}
