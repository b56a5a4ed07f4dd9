import { UserError } from '../../errors.js';
import type { Pos } from './spec.js';

/** What went wrong in an activity file, so that tools and tests can tell errors apart. */
export type ActivityErrorCode = 'syntax' | 'shape' | 'unknown-constraint' | 'unknown-action' | 'bad-argument' | 'unknown-key';

/** A mistake in an activity file (either form), at file:line:col, with the fix in words. */
export class ActivityError extends UserError {
  readonly code: ActivityErrorCode;

  constructor(code: ActivityErrorCode, message: string, where: { file?: string; at?: Pos }, fix?: string) {
    super(message, { file: where.file ?? '<input>', line: where.at?.line, col: where.at?.col, fix });
    this.name = 'ActivityError';
    this.code = code;
  }
}

/** The known names nearest to `name` (edit distance at most a third of its length, or a shared start), best first. */
export function nearest(name: string, known: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return known
    .map((k) => ({ k, d: distance(name, k) }))
    .filter((x) => x.d <= limit || sharedPrefix(name, x.k) >= Math.min(5, name.length))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, max)
    .map((x) => x.k);
}

export function suggestion(name: string, known: readonly string[]): string {
  const near = nearest(name, known);
  return near.length > 0 ? `did you mean ${near.join(', ')}?` : `known names: ${known.join(', ')}`;
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
