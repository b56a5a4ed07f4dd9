/**
 * Error classes carry the policy (practice 6): a UserError is something the person at the
 * keyboard can fix, so it names where (file:line:col), the value received and the fix.
 * Only src/cli turns errors into text and exit codes.
 */

export interface Where {
  file?: string;
  line?: number;
  col?: number;
}

export interface UserErrorDetails extends Where {
  /** The value that was received, quoted in the message. */
  value?: string;
  /** What to do about it, one short sentence. */
  fix?: string;
}

export class UserError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly value?: string;
  readonly fix?: string;

  constructor(message: string, details: UserErrorDetails = {}) {
    super(message);
    this.name = 'UserError';
    this.file = details.file;
    this.line = details.line;
    this.col = details.col;
    this.value = details.value;
    this.fix = details.fix;
  }

  /** `file:line:col: message (got "value"); fix` — the one line the CLI prints. */
  toLine(): string {
    const where = formatWhere(this);
    const got = this.value === undefined ? '' : ` (got ${JSON.stringify(this.value)})`;
    const fix = this.fix ? `; ${this.fix}` : '';
    return `${where ? `${where}: ` : ''}${this.message}${got}${fix}`;
  }
}

export function formatWhere(w: Where): string {
  if (!w.file && w.line === undefined) return '';
  const parts: string[] = [w.file ?? '<input>'];
  if (w.line !== undefined) {
    parts.push(String(w.line));
    if (w.col !== undefined) parts.push(String(w.col));
  }
  return parts.join(':');
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * The database went away and did not come back within the retries (a server restarted or
 * stopped, a connection killed for good, a SQLite file locked by another writer for too long).
 * Not the user's input: the run stops cleanly, keeps what was written, and says so in one line.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
