/**
 * Constraint specs to the predicates the engine runs. Each compiled constraint is named by its
 * canonical s-expression, so the resolved order and every rejection read as the file does.
 */
import { and, constraint, ifThen, not, or, type Constraint } from '../constraints/constraint.js';
import { ActivityError, suggestion } from './errors.js';
import { printConstraint, printOperand } from './print.js';
import { lispForm } from './lisp.js';
import type { ConstraintSpec, Operand } from './spec.js';
import { buildLeaf, coerce, constraintType, CONSTRAINT_NAMES } from './vocabulary.js';

const KNOWN = [...CONSTRAINT_NAMES, 'and', 'or', 'not', 'if'];
const named = (c: Constraint, name: string): Constraint => ({ name, cost: c.cost, test: c.test });

/** The top-level set, in the order written (a ConstraintSet sorts it by cost once). */
export function compileConstraints(specs: readonly ConstraintSpec[], file?: string): Constraint[] {
  return specs.map((s) => compileConstraint(s, file));
}

export function compileConstraint(spec: ConstraintSpec, file?: string): Constraint {
  const name = printConstraint(spec);
  if (spec.kind === 'circumstance') {
    const ops = spec.operands.map((o) => compileOperand(o, file));
    switch (spec.name) {
      case 'and': return named(and(...ops), name);
      case 'or': return named(or(...ops), name);
      case 'not': return named(not(ops[0]!), name);
      case 'if': return named(ifThen(ops[0]!, ops[1]!, ops[2]), name);
    }
  }
  const type = constraintType(spec.name);
  if (!type) throw new ActivityError('unknown-constraint', `unknown constraint ${spec.name}`, { file, at: spec.at }, suggestion(spec.name, KNOWN));
  const required = type.args.filter((a) => !a.optional).length;
  if (spec.args.length < required || spec.args.length > type.args.length) {
    const shape = type.args.map((a) => (a.optional ? `[${a.name}]` : a.name)).join(' ');
    throw new ActivityError('bad-argument', `${spec.name} takes ${shape || 'no arguments'}`, { file, at: spec.at }, `got ${spec.args.length}`);
  }
  const args = spec.args.map((v, i) => coerce(type.args[i]!, v, file));
  const predicateArg = spec.args.find((_, i) => type.args[i]!.kind === 'predicate');
  return named(buildLeaf(type, args, predicateArg, file), name);
}

/** A set of one is its member; the empty set (`nil`) passes; a larger set holds when all do. */
function compileOperand(o: Operand, file?: string): Constraint {
  if (o.kind !== 'set') return compileConstraint(o, file);
  const members = o.members.map((m) => compileConstraint(m, file));
  if (members.length === 1) return members[0]!;
  return members.length === 0 ? constraint('nil', 'context', () => true) : named(and(...members), printOperand(o));
}

/**
 * The constraints in canonical form: a Lisp predicate that JSON had to write as a string
 * (`"#'(lambda (x) …)"`) becomes the form it holds, so both readers give one model.
 */
export function canonicalConstraints(specs: readonly ConstraintSpec[], file?: string): ConstraintSpec[] {
  return specs.map((s) => canonicalConstraint(s, file));
}

function canonicalConstraint(spec: ConstraintSpec, file?: string): ConstraintSpec {
  if (spec.kind === 'circumstance') {
    const operands = spec.operands.map((o) => (o.kind === 'set' ? { ...o, members: canonicalConstraints(o.members, file) } : canonicalConstraint(o, file)));
    return { ...spec, operands };
  }
  const type = constraintType(spec.name);
  if (!type) return spec;
  const args = spec.args.map((v, i) => (type.args[i]?.kind === 'predicate' && v.kind === 'string' ? lispForm(v, file) ?? v : v));
  return { ...spec, args };
}
