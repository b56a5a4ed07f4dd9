/**
 * Activity files in either form to the one model, checked against both vocabularies, so a parsed
 * activity always compiles. The s-expression form is the paper's `(define-activity NAME :key
 * value …)`; the JSON form is an object described by activities/activity.schema.json.
 */
import { STRATEGIES } from '../strategies/strategy.js';
import { canonicalAction, checkAction } from './actions-spec.js';
import { canonicalConstraints, compileConstraints } from './compile.js';
import { ActivityError, suggestion } from './errors.js';
import { readJson } from './json-reader.js';
import { readActions, readConstraintSet } from './read.js';
import { printValue, readSexprs } from './sexpr.js';
import type { Activity, Pos, Value } from './spec.js';

const SEXPR_KEYS = ['documentation', 'strategy', 'operator', 'constraint-set', 'actions', 'report-stream'];
const JSON_KEYS = ['$schema', 'name', 'documentation', 'strategy', 'operator', 'constraints', 'actions', 'reportStream'];

/** Checks the activity against both vocabularies, and puts it in canonical form. */
function validate(a: Activity): Activity {
  a.constraints = canonicalConstraints(a.constraints, a.file);
  a.actions = a.actions.map((x) => canonicalAction(x, a.file));
  compileConstraints(a.constraints, a.file);
  for (const x of a.actions) checkAction(x, a.file);
  return a;
}

/** The strategy as written, checked where it is written (its own line:col, not the activity's). */
const strategy = (v: Value, what: string, file?: string, symbolOk = false): string => {
  const s = text(v, what, file, symbolOk);
  if (!(STRATEGIES as readonly string[]).includes(s)) throw new ActivityError('bad-argument', `unknown strategy ${s}`, { file, at: v.at }, `use one of ${STRATEGIES.join(', ')}`);
  return s;
};

const text = (v: Value, what: string, file?: string, symbolOk = false): string => {
  if (v.kind === 'string' || (symbolOk && v.kind === 'symbol')) return v.value;
  throw new ActivityError('bad-argument', `${what} must be a ${symbolOk ? 'name or a ' : ''}"string"`, { file, at: v.at }, `got ${printValue(v)}`);
};

/** The paper's form: one `(define-activity NAME :key value …)`. */
export function parseSexprActivity(source: string, file?: string): Activity {
  const forms = readSexprs(source, file);
  const form = forms[0];
  const at1: Pos = { line: 1, col: 1 };
  if (!form || form.kind !== 'list' || form.items[0]?.kind !== 'symbol' || form.items[0].value !== 'define-activity') {
    throw new ActivityError('shape', 'expected (define-activity NAME :key value …)', { file, at: form?.at ?? at1 }, 'start the file with (define-activity');
  }
  if (forms[1]) throw new ActivityError('shape', 'one define-activity per file', { file, at: forms[1].at }, 'move the next form to a file of its own');
  const [, nameV, ...rest] = form.items;
  if (!nameV || nameV.kind !== 'symbol') throw new ActivityError('shape', 'the activity needs a name', { file, at: nameV?.at ?? form.at }, 'write (define-activity my-walk …)');
  const a: Activity = { name: nameV.value, constraints: [], actions: [], file, at: form.at };
  for (let i = 0; i < rest.length; i += 2) {
    const k = rest[i]!;
    const key = k.kind === 'symbol' && k.value.startsWith(':') ? k.value.slice(1) : '';
    if (!SEXPR_KEYS.includes(key)) {
      throw new ActivityError('unknown-key', `unknown key ${printValue(k)}`, { file, at: k.at }, suggestion(printValue(k), SEXPR_KEYS.map((x) => `:${x}`)));
    }
    const v = rest[i + 1];
    if (!v) throw new ActivityError('shape', `:${key} needs a value`, { file, at: k.at });
    if (key === 'documentation') a.documentation = text(v, ':documentation', file);
    else if (key === 'strategy') a.strategy = strategy(v, ':strategy', file, true);
    else if (key === 'operator') a.operator = text(v, ':operator', file);
    else if (key === 'report-stream') a.reportStream = text(v, ':report-stream', file, true);
    else if (key === 'constraint-set') a.constraints = readConstraintSet(v, file);
    else a.actions = readActions(v, file);
  }
  return validate(a);
}

/** The JSON form. */
export function parseJsonActivity(source: string, file?: string): Activity {
  const root = readJson(source, file);
  if (root.kind !== 'object') throw new ActivityError('shape', 'expected a JSON object', { file, at: root.at }, 'see activities/activity.schema.json');
  const fields: { [k: string]: Value } = {};
  for (const e of root.entries) {
    if (!JSON_KEYS.includes(e.key)) throw new ActivityError('unknown-key', `unknown key "${e.key}"`, { file, at: e.at }, suggestion(e.key, JSON_KEYS));
    if (e.value.kind === 'object') throw new ActivityError('shape', `"${e.key}" cannot be an object`, { file, at: e.value.at });
    fields[e.key] = e.value;
  }
  const name = fields.name;
  if (!name) throw new ActivityError('shape', 'the activity needs a "name"', { file, at: root.at });
  const a: Activity = { name: text(name, '"name"', file), constraints: [], actions: [], file, at: root.at };
  if (fields.documentation) a.documentation = text(fields.documentation, '"documentation"', file);
  if (fields.strategy) a.strategy = strategy(fields.strategy, '"strategy"', file);
  if (fields.operator) a.operator = text(fields.operator, '"operator"', file);
  if (fields.reportStream) a.reportStream = text(fields.reportStream, '"reportStream"', file);
  if (fields.constraints) a.constraints = readConstraintSet(fields.constraints, file);
  if (fields.actions) a.actions = readActions(fields.actions, file);
  return validate(a);
}

/** A constraint list as the mapper's form takes it, e.g. `((not ((uri-search "tmp"))))`, or one constraint. */
export function parseConstraintText(source: string, file?: string) {
  const forms = readSexprs(source, file);
  if (forms.length !== 1) {
    throw new ActivityError('shape', 'expected one list of constraints', { file, at: forms[1]?.at ?? { line: 1, col: 1 } }, 'write e.g. ((depth 2) (no-cycles))');
  }
  const form = forms[0]!;
  // One constraint, `(uri-extension :html)`, is a set of one.
  const single = form.kind === 'list' && form.items[0]?.kind === 'symbol';
  const set = readConstraintSet(single ? { kind: 'list', items: [form], at: form.at } : form, file);
  compileConstraints(set, file);
  return set;
}

/** By the file's name: `.json` is JSON, anything else the paper's form. */
export function parseActivity(source: string, file: string): Activity {
  return file.toLowerCase().endsWith('.json') ? parseJsonActivity(source, file) : parseSexprActivity(source, file);
}
