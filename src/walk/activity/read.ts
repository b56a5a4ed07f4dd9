/**
 * Values (from either reader) to constraint and action specs. A constraint is a list headed by its
 * name, `(depth 2)` or `["depth", 2]`; a constraint set is a list of constraints; `nil` or an empty
 * list is the empty set.
 */
import { ActivityError } from './errors.js';
import { printValue } from './sexpr.js';
import { CIRCUMSTANCES, isNil, type ActionSpec, type CircumstanceName, type ConstraintSpec, type Operand, type Value } from './spec.js';

const headName = (v: Value): string | undefined => {
  if (v.kind !== 'list') return undefined;
  const h = v.items[0];
  return h && (h.kind === 'symbol' || h.kind === 'string') ? h.value.toLowerCase() : undefined;
};
const isListOfLists = (v: Value): v is Value & { kind: 'list' } => v.kind === 'list' && v.items.length > 0 && v.items.every((x) => x.kind === 'list');
const ARITY: { [k in CircumstanceName]: [number, number] } = { and: [0, Infinity], or: [0, Infinity], not: [1, 1], if: [2, 3] };

export function readConstraint(v: Value, file?: string): ConstraintSpec {
  const name = headName(v);
  if (name === undefined) {
    throw new ActivityError('shape', 'expected a constraint, a list headed by its name', { file, at: v.at }, `got ${printValue(v)}; write e.g. (depth 2)`);
  }
  const rest = (v as { items: Value[] }).items.slice(1);
  if ((CIRCUMSTANCES as readonly string[]).includes(name)) {
    const c = name as CircumstanceName;
    const [lo, hi] = ARITY[c];
    if (rest.length < lo || rest.length > hi) {
      const want = c === 'if' ? 'an antecedent, a consequent and an optional alternate' : 'one constraint or constraint set';
      throw new ActivityError('shape', `${c} takes ${want}`, { file, at: v.at }, `got ${rest.length}`);
    }
    return { kind: 'circumstance', name: c, operands: rest.map((x) => readOperand(x, file)), at: v.at };
  }
  return { kind: 'leaf', name, args: rest, at: v.at };
}

export function readOperand(v: Value, file?: string): Operand {
  if (isNil(v) || isListOfLists(v)) return { kind: 'set', members: readConstraintSet(v, file), at: v.at };
  return readConstraint(v, file);
}

export function readConstraintSet(v: Value, file?: string): ConstraintSpec[] {
  if (isNil(v)) return [];
  if (!isListOfLists(v)) {
    throw new ActivityError('shape', 'expected a constraint set, a list of constraints', { file, at: v.at }, `got ${printValue(v)}; write e.g. ((depth 2) (no-cycles))`);
  }
  return v.items.map((x) => readConstraint(x, file));
}

/** Actions: a list of `(name args…)`; a trailing list of actions is what an encapsulating action surrounds. */
export function readActions(v: Value, file?: string): ActionSpec[] {
  if (isNil(v)) return [];
  if (!isListOfLists(v)) {
    throw new ActivityError('shape', 'expected a list of actions', { file, at: v.at }, `got ${printValue(v)}; write e.g. ((trace) (walk-inferiors))`);
  }
  return v.items.map((x) => {
    const name = headName(x);
    if (name === undefined) throw new ActivityError('shape', 'expected an action, a list headed by its name', { file, at: x.at }, `got ${printValue(x)}`);
    const args = (x as { items: Value[] }).items.slice(1);
    const last = args[args.length - 1];
    if (last && isListOfLists(last)) return { name, args: args.slice(0, -1), inner: readActions(last, file), at: x.at };
    return { name, args, at: x.at };
  });
}
