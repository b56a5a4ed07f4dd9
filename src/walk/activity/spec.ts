/**
 * One model for an activity, whichever form it was written in (the W4 paper's s-expression or
 * JSON): a named bundle of strategy, constraints and actions, with the source position of every
 * part so that a mistake found later still points at file:line:col.
 */

export interface Pos {
  line: number;
  col: number;
}

/** An argument as written: numbers, strings, symbols (`>`, `t`, `nil`, `:text`, `*standard-output*`) and lists. */
export type Value =
  | { kind: 'number'; value: number; at?: Pos }
  | { kind: 'string'; value: string; at?: Pos }
  | { kind: 'symbol'; value: string; at?: Pos }
  | { kind: 'list'; items: Value[]; at?: Pos };

/** The circumstance constraints of the paper: their operands are constraints or constraint sets. */
export const CIRCUMSTANCES = ['and', 'or', 'not', 'if'] as const;
export type CircumstanceName = (typeof CIRCUMSTANCES)[number];

export type ConstraintSpec =
  | { kind: 'leaf'; name: string; args: Value[]; at?: Pos }
  | { kind: 'circumstance'; name: CircumstanceName; operands: Operand[]; at?: Pos };

/** A circumstance's operand: one constraint, or a set of them (`nil` is the empty set, which passes). */
export type Operand = ConstraintSpec | { kind: 'set'; members: ConstraintSpec[]; at?: Pos };

/** An action with its arguments; an encapsulating action surrounds the actions in `inner`. */
export interface ActionSpec {
  name: string;
  args: Value[];
  inner?: ActionSpec[];
  at?: Pos;
}

export interface Activity {
  name: string;
  documentation?: string;
  strategy?: string;
  /** Who runs the walk (the paper's :operator); a From address for the requests. */
  operator?: string;
  /** Where trace actions write (the paper's :report-stream), e.g. `*standard-output*`. */
  reportStream?: string;
  /** The top-level constraint set, in the order written; compiling sorts it by cost. */
  constraints: ConstraintSpec[];
  actions: ActionSpec[];
  file?: string;
  at?: Pos;
}

export const sym = (value: string, at?: Pos): Value => ({ kind: 'symbol', value, at });
export const isSymbol = (v: Value | undefined, name?: string): boolean =>
  v?.kind === 'symbol' && (name === undefined || v.value.toLowerCase() === name);
/** Lisp's nil: the symbol, or the empty list. */
export const isNil = (v: Value | undefined): boolean => isSymbol(v, 'nil') || (v?.kind === 'list' && v.items.length === 0);
