/**
 * The one exit-code table (practice 7). The README's table is checked against this one by a test.
 */
export const EXIT = {
  /** The command did what was asked. */
  OK: 0,
  /** The command ran to the end but found problems in what it examined (broken links, for `anwc check`). */
  PROBLEMS: 1,
  /** Bad input: a flag, a file, a URL, a database address. Nothing stored was changed. */
  USAGE: 2,
  /** A fault of anwc or its surroundings that the user did not cause (a bug, a full disk). */
  INTERNAL: 3,
  /** The database went away during the run and did not come back: what was stored is kept; rerun to resume. */
  STORE_UNAVAILABLE: 4,
  /**
   * A disk filled up or a database file is damaged: what was written is kept and the page at hand
   * is not judged; free space (or restore the file) and rerun to finish.
   */
  STORAGE_FAULT: 5,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM after saving what was in flight. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
