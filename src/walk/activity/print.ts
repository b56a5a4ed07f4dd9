/**
 * Canonical printers for both forms. parse(print(a)) gives `a` back (positions aside), and the
 * s-expression printer is also how a compiled constraint is named, so `anwc why` shows a
 * rejection in the words of the activity file.
 */
import { printValue } from './sexpr.js';
import type { ActionSpec, Activity, ConstraintSpec, Operand, Value } from './spec.js';

export function printConstraint(c: ConstraintSpec): string {
  const parts = c.kind === 'leaf' ? c.args.map(printValue) : c.operands.map(printOperand);
  return `(${[c.name, ...parts].join(' ')})`;
}

export function printOperand(o: Operand): string {
  if (o.kind !== 'set') return printConstraint(o);
  return o.members.length === 0 ? 'nil' : `(${o.members.map(printConstraint).join(' ')})`;
}

function printAction(a: ActionSpec): string {
  const inner = a.inner ? [`(${a.inner.map(printAction).join(' ')})`] : [];
  return `(${[a.name, ...a.args.map(printValue), ...inner].join(' ')})`;
}

const str = (s: string) => printValue({ kind: 'string', value: s });
const set = (xs: string[]) => (xs.length === 0 ? 'nil' : `(${xs.join(' ')})`);

/** One member a line, lined up under the first, as the paper prints its activities. */
const column = (key: string, xs: string[]) => `  ${key} ${xs.length === 0 ? 'nil' : `(${xs.join(`\n${' '.repeat(key.length + 4)}`)})`}`;

export function serializeSexpr(a: Activity): string {
  const lines = [`(define-activity ${a.name}`];
  if (a.documentation !== undefined) lines.push(`  :documentation ${str(a.documentation)}`);
  if (a.strategy !== undefined) lines.push(`  :strategy ${a.strategy}`);
  if (a.operator !== undefined) lines.push(`  :operator ${str(a.operator)}`);
  lines.push(column(':constraint-set', a.constraints.map(printConstraint)));
  lines.push(column(':actions', a.actions.map(printAction)));
  if (a.reportStream !== undefined) lines.push(`  :report-stream ${a.reportStream}`);
  return `${lines.join('\n')})\n`;
}

type Json = number | string | boolean | Json[] | { [k: string]: Json };

/** JSON has no symbols, so a Lisp function keeps its s-expression text: `"#'(lambda (x) …)"` reads back as Lisp. */
const isLispFunction = (v: Value): boolean =>
  v.kind === 'list' && v.items[0]?.kind === 'symbol' && ['function', 'quote', 'lambda'].includes(v.items[0].value);

function valueJson(v: Value): Json {
  if (isLispFunction(v)) return printValue(v);
  switch (v.kind) {
    case 'number':
    case 'string':
      return v.value;
    case 'symbol':
      return v.value === 't' ? true : v.value === 'nil' ? false : v.value;
    case 'list':
      return v.items.map(valueJson);
  }
}

function constraintJson(c: ConstraintSpec): Json {
  return c.kind === 'leaf' ? [c.name, ...c.args.map(valueJson)] : [c.name, ...c.operands.map(operandJson)];
}
const operandJson = (o: Operand): Json => (o.kind === 'set' ? o.members.map(constraintJson) : constraintJson(o));
const actionJson = (a: ActionSpec): Json => [a.name, ...a.args.map(valueJson), ...(a.inner ? [a.inner.map(actionJson)] : [])];

export function toJson(a: Activity): string {
  const out: { [k: string]: Json } = { name: a.name };
  if (a.documentation !== undefined) out.documentation = a.documentation;
  if (a.strategy !== undefined) out.strategy = a.strategy;
  if (a.operator !== undefined) out.operator = a.operator;
  out.constraints = a.constraints.map(constraintJson);
  out.actions = a.actions.map(actionJson);
  if (a.reportStream !== undefined) out.reportStream = a.reportStream;
  // One constraint or action a line: the file reads like the s-expression form, and diffs stay small.
  const body = Object.entries(out).map(([k, v]) => {
    const inner = Array.isArray(v) && v.length > 0 ? `[\n    ${v.map((x) => JSON.stringify(x)).join(',\n    ')}\n  ]` : JSON.stringify(v);
    return `  ${JSON.stringify(k)}: ${inner}`;
  });
  return `{\n${body.join(',\n')}\n}\n`;
}

