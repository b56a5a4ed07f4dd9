/**
 * Constraints of the W4 walker: small named predicates with a cost class. A set is sorted once,
 * cheapest class first, so an expensive check never runs when a cheap one already said no; and/or/
 * not take the class of their most expensive member; a constraint that throws rejects (fails
 * closed). Every rejection names the constraint, so `anwc why` can answer.
 */

/** Cost classes in increasing order of cost (W4 paper, section D). */
export const COST_CLASSES = ['context', 'uri', 'dns', 'header', 'resource'] as const;
export type CostClass = (typeof COST_CLASSES)[number];

export function costRank(c: CostClass): number {
  return COST_CLASSES.indexOf(c);
}

/** What a constraint may look at; later classes fill in more of it. */
export interface Candidate {
  url: URL;
  depth: number;
  referrer?: string;
  /** Response headers, once a HEAD or GET was made (header class). */
  headers?: Record<string, string>;
  /** The decoded body, once a GET was made (resource class). */
  body?: string;
  /** The URLs walked from the root down to the referrer, root first, not this one (no-cycles). */
  path?: readonly string[];
  /** The host's DNS answer: CNAME chain resolved, and its addresses (DNS class, uri-host). */
  dns?: DnsFacts;
  /** The same for the referrer's host (DNS class, uri-referrer-host). */
  referrerDns?: DnsFacts;
  /** Whether the site's robots.txt lets this crawler fetch the URL (header class). */
  robotsAllowed?: boolean;
  /** The walk's clock, epoch milliseconds, for ages (header class). */
  now?: number;
}

export interface DnsFacts {
  canonicalName: string;
  addresses: readonly string[];
}

/**
 * Thrown when a constraint needs a fact the engine has not filled in: the set rejects (fails
 * closed) and the verdict's detail names the missing field, so a wiring mistake is visible.
 */
export class MissingFact extends Error {
  constructor(field: string, cost: CostClass) {
    super(`missing candidate.${field} (the engine fills it at the ${cost} class)`);
    this.name = 'MissingFact';
  }
}

/** The field's value, or a MissingFact. */
export function need<K extends keyof Candidate>(c: Candidate, field: K, cost: CostClass): NonNullable<Candidate[K]> {
  const v = c[field];
  if (v === undefined || v === null) throw new MissingFact(field, cost);
  return v as NonNullable<Candidate[K]>;
}

export interface Constraint {
  readonly name: string;
  readonly cost: CostClass;
  test(c: Candidate): boolean;
}

export type Verdict = { pass: true } | { pass: false; constraint: string; cost: CostClass; detail?: string };

export function constraint(name: string, cost: CostClass, test: (c: Candidate) => boolean): Constraint {
  return { name, cost, test };
}

function mostExpensive(cs: readonly Constraint[]): CostClass {
  return cs.reduce<CostClass>((acc, c) => (costRank(c.cost) > costRank(acc) ? c.cost : acc), 'context');
}

export function and(...cs: Constraint[]): Constraint {
  const sorted = sortByCost(cs);
  return constraint(`and(${cs.map((c) => c.name).join(', ')})`, mostExpensive(cs), (x) => sorted.every((c) => c.test(x)));
}

export function or(...cs: Constraint[]): Constraint {
  const sorted = sortByCost(cs);
  return constraint(`or(${cs.map((c) => c.name).join(', ')})`, mostExpensive(cs), (x) => sorted.some((c) => c.test(x)));
}

export function not(c: Constraint): Constraint {
  return constraint(`not(${c.name})`, c.cost, (x) => !c.test(x));
}

/** W4's conditional: when `cond` holds, `then` decides, otherwise `otherwise` (default pass). */
export function ifThen(cond: Constraint, then: Constraint, otherwise?: Constraint): Constraint {
  const members = otherwise ? [cond, then, otherwise] : [cond, then];
  const name = `if(${members.map((c) => c.name).join(', ')})`;
  return constraint(name, mostExpensive(members), (x) => (cond.test(x) ? then.test(x) : otherwise ? otherwise.test(x) : true));
}

/** Stable sort by cost class: ties keep the order the activity gave (pitfall 2: no hidden order). */
export function sortByCost(cs: readonly Constraint[]): Constraint[] {
  return cs.map((c, i) => ({ c, i })).sort((a, b) => costRank(a.c.cost) - costRank(b.c.cost) || a.i - b.i).map((x) => x.c);
}

/**
 * A constraint set, sorted once. `check` runs the constraints of the classes up to `upTo` (the
 * information the caller has now) and stops at the first rejection.
 */
export class ConstraintSet {
  readonly ordered: readonly Constraint[];

  constructor(cs: readonly Constraint[]) {
    this.ordered = sortByCost(cs);
  }

  check(c: Candidate, upTo: CostClass = 'resource', from: CostClass = 'context'): Verdict {
    const lo = costRank(from);
    const hi = costRank(upTo);
    for (const k of this.ordered) {
      const rank = costRank(k.cost);
      if (rank < lo || rank > hi) continue;
      let ok: boolean;
      let detail: string | undefined;
      try {
        ok = k.test(c);
      } catch (err) {
        ok = false;
        detail = `threw: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (!ok) return { pass: false, constraint: k.name, cost: k.cost, detail };
    }
    return { pass: true };
  }

  /** The resolved order, printable (pitfall 2). */
  describe(): string[] {
    return this.ordered.map((c) => `${c.cost}: ${c.name}`);
  }

  needs(cost: CostClass): boolean {
    return this.ordered.some((c) => c.cost === cost);
  }
}
