import { median } from './stats.js';

/**
 * A speed goal judged round by round. One run's medians can put a goal on either side of its line
 * (the crawl bench's MariaDB server CPU read 0.92 and 1.08 ms a page in two runs of the same
 * build), so the bench says in how many rounds a goal was met and over what range, not only
 * whether the median met it.
 */
export interface Goal {
  /** What is measured, as the line names it. */
  name: string;
  /** One value a round. */
  values: readonly number[];
  /** The goal: at least or at most this. */
  atLeast?: number;
  atMost?: number;
  /** Decimals shown, and a unit after the values. */
  digits: number;
  unit?: string;
  /**
   * `median`: the goal is judged on the rounds' median, for values each of one short run (a
   * command's start-up, some 80 ms, where one round's burst of load on the machine moves its
   * ratio by half); by default every round must meet it.
   */
  judge?: 'median';
}

/** `- name ≥ x: met | not met | met in k of n rounds (min–max over n rounds)`. */
export function goalLine(g: Goal): string {
  if ((g.atLeast === undefined) === (g.atMost === undefined)) throw new Error(`goal ${g.name}: give atLeast or atMost, not both`);
  const line = g.atLeast !== undefined ? `≥ ${g.atLeast}` : `≤ ${g.atMost}`;
  const unit = g.unit ? ` ${g.unit}` : '';
  if (g.values.length === 0) return `- ${g.name} ${line}${unit}: not measured`;
  const meets = (v: number) => (g.atLeast !== undefined ? v >= g.atLeast : v <= g.atMost!);
  const n = g.values.length;
  const lo = Math.min(...g.values).toFixed(g.digits);
  const hi = Math.max(...g.values).toFixed(g.digits);
  const range = `${lo === hi ? lo : `${lo}–${hi}`}${unit} over ${n} round${n === 1 ? '' : 's'}`;
  if (g.judge === 'median') {
    const mid = median(g.values);
    return `- ${g.name} ${line}${unit}: ${meets(mid) ? 'met' : 'not met'} by the median, ${mid.toFixed(g.digits)}${unit} (${range})`;
  }
  const met = g.values.filter(meets).length;
  const verdict = met === n ? 'met' : met === 0 ? 'not met' : `met in ${met} of ${n} rounds`;
  return `- ${g.name} ${line}${unit}: ${verdict} (${range})`;
}

/** Each round's a[i] / b[i]: a paired ratio, as the rounds ran under the same load. */
export function perRound(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`rounds differ: ${a.length} and ${b.length}`);
  return a.map((x, i) => x / b[i]!);
}
