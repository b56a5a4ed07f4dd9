import { UserError } from '../errors.js';
import type { Position } from './types.js';

/** What went wrong, so that tools and tests can tell errors apart without reading prose. */
export type MarkupErrorCode =
  | 'unclosed-group'
  | 'stray-close'
  | 'unterminated-value'
  | 'needs-value'
  | 'unknown-escape'
  | 'misplaced-group'
  | 'unnamed-group'
  | 'too-deep'
  | 'misplaced-text'
  | 'misplaced-control'
  | 'duplicate-attribute';

/** A mistake in an ANE markup file, located at file:line:col, with the fix in words. */
export class MarkupError extends UserError {
  readonly code: MarkupErrorCode;

  constructor(code: MarkupErrorCode, message: string, where: Position & { file?: string }, fix?: string) {
    super(message, { file: where.file ?? '<input>', line: where.line, col: where.col, fix });
    this.name = 'MarkupError';
    this.code = code;
  }
}

export function byPosition(a: MarkupError, b: MarkupError): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}
