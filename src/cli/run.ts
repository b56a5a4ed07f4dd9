import { printable, readOnlyStore, storageFault, StoreUnavailableError, UserError } from '../errors.js';
import { EXIT } from './exit.js';

/**
 * The only place where errors become text and exit codes. A UserError is one line and exit 2;
 * anything else is a fault of ours: one line, exit 3, and the stack only with ANWC_DEBUG=1. Each
 * line is printable: what a message quotes of the input cannot drive the terminal.
 */
export function reportError(err: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  const userError = err instanceof UserError ? err : readOnlyStore(err);
  if (userError) {
    stderr.write(`anwc: ${userError.toLine()}\n`);
    return EXIT.USAGE;
  }
  if (err instanceof StoreUnavailableError) {
    stderr.write(`anwc: store unavailable: ${printable(err.message)}; what was stored is kept, rerun to resume\n`);
    return EXIT.STORE_UNAVAILABLE;
  }
  const fault = storageFault(err);
  if (fault) {
    const fix = fault.fix ?? (fault.kind === 'full' ? 'free some space and rerun: what was stored is kept and the run resumes' : 'restore the file from a copy, then rerun');
    stderr.write(`anwc: ${printable(fault.message)}; ${fix}\n`);
    return EXIT.STORAGE_FAULT;
  }
  const message = err instanceof Error ? err.message : String(err);
  stderr.write(`anwc: internal error: ${printable(message)}\n`);
  if (process.env.ANWC_DEBUG && err instanceof Error && err.stack) stderr.write(`${err.stack}\n`);
  else stderr.write('anwc: rerun with ANWC_DEBUG=1 to see where it happened\n');
  return EXIT.INTERNAL;
}

/** Wraps a command handler: its resolved number (or OK) becomes the exit code. */
export function handler<A>(fn: (argv: A) => Promise<number | void> | number | void) {
  return async (argv: any): Promise<void> => {
    try {
      const code = await fn(argv as A);
      process.exitCode = code ?? EXIT.OK;
    } catch (err) {
      process.exitCode = reportError(err);
    }
  };
}
