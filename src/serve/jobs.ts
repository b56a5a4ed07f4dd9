import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

export type JobKind = 'seed' | 'harvest';

/** A job as the pages show it. */
export interface JobView {
  kind: JobKind;
  state: 'running' | 'stopping' | 'done' | 'failed' | 'interrupted';
  startedAt: number;
  exitCode: number | null;
  /** The last lines the command wrote (what a user at a terminal would read). */
  lines: string[];
}

const MAIN = fileURLToPath(new URL('../cli/main.js', import.meta.url));
// A harvest's summary (pages, nodes, reasons, the wheel) fits.
const LINES_KEPT = 40;

/**
 * Seeding and harvesting from the studio run as the CLI commands in a child process, so a
 * harvest from the page behaves as one from a terminal (the same progress, resume and Ctrl-C
 * semantics) and a slow page never holds up the server. One job at a time.
 */
export class Jobs {
  private child: ChildProcess | undefined;
  private view: JobView | null = null;
  private ended: Promise<void> = Promise.resolve();

  /**
   * @param db the database address, passed to the child in its environment (never on argv, where `ps` would show a password)
   * @param extra arguments every child gets (the studio's --config, the demo web's --resolve)
   */
  constructor(private readonly db: string, private readonly extra: Record<JobKind, string[]>) {}

  current(): JobView | null {
    return this.view && { ...this.view, lines: [...this.view.lines] };
  }

  running(): boolean {
    return this.child !== undefined;
  }

  /** Starts the command; false when a job is running already. */
  start(kind: JobKind, args: string[]): boolean {
    if (this.child) return false;
    const view: JobView = { kind, state: 'running', startedAt: Date.now(), exitCode: null, lines: [] };
    const child = spawn(process.execPath, [...process.execArgv, MAIN, kind, ...args, ...this.extra[kind]], {
      // The channel tells the job when the studio is gone, even by SIGKILL: it stops as at Ctrl-C (cli/main.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: a Ctrl-C at the studio's terminal reaches the job once, through stop(), not twice.
      detached: true,
      env: { ...process.env, ANWC_DB: this.db },
    });
    const partial = { stdout: '', stderr: '' };
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]!.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (partial[stream] + chunk).split('\n');
        partial[stream] = lines.pop()!;
        view.lines.push(...lines.filter((l) => l.trim() !== ''));
        view.lines.splice(0, Math.max(0, view.lines.length - LINES_KEPT));
      });
    }
    this.child = child;
    this.view = view;
    this.ended = new Promise((resolve) => {
      child.on('error', (err) => {
        view.lines.push(`anwc: could not start ${kind}: ${err.message}`);
      });
      child.on('close', (code, signal) => {
        for (const rest of Object.values(partial)) if (rest.trim() !== '') view.lines.push(rest);
        // Stopped before it could catch Ctrl-C: the signal ended it, as a shell reports it (128 + its number).
        view.exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);
        view.state = view.exitCode === 0 ? 'done' : view.exitCode === 130 ? 'interrupted' : 'failed';
        this.child = undefined;
        resolve();
      });
    });
    return true;
  }

  /**
   * Ctrl-C for the job: the first stop finishes the pages in flight and saves, a second stops at
   * once (as a second Ctrl-C at a terminal). False when nothing runs.
   */
  stop(): boolean {
    if (!this.child || !this.view) return false;
    this.view.state = 'stopping';
    this.child.kill('SIGINT');
    return true;
  }

  /** Resolves when the current job (if any) has ended. */
  async settled(): Promise<void> {
    await this.ended;
  }
}
