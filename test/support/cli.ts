import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The built CLI as a user runs it, in a child process: the environment's database and debug
 * settings cleared unless a test gives them, so that nothing of the developer's shell leaks in.
 */
export const CLI = resolve('dist', 'src', 'cli', 'main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Run as this user and group (a test run as root that needs a user the file modes bind). */
  uid?: number;
  gid?: number;
}

const environment = (env: Record<string, string> = {}) => ({ ...process.env, ANWC_DB: '', ANWC_DEBUG: '', ...env });

/** Starts anwc and hands back the child (to signal it) and its end. */
export function startAnwc(args: string[], opts: CliOptions = {}): { child: ChildProcess; exited: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: environment(opts.env), uid: opts.uid, gid: opts.gid });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<CliResult>((ok) => child.on('close', (code) => ok({ code, stdout, stderr })));
  return { child, exited };
}

/** Runs anwc to its end. */
export function anwc(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return startAnwc(args, opts).exited;
}

/** Runs anwc to its end, blocking (bounded: a minute). */
export function anwcSync(args: string[], opts: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: opts.cwd, timeout: 60_000, env: environment(opts.env) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
