import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';

const FLAG = /^--max[-_]semi[-_]space[-_]size=(\d+)$/;

/** The semi-space size in MB that `--max-semi-space-size` gives this process (the last one given wins, NODE_OPTIONS first), or undefined. */
export function semiSpaceFlag(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number | undefined {
  let mb: number | undefined;
  for (const arg of [...nodeOptions.split(/\s+/), ...execArgv]) {
    const m = FLAG.exec(arg);
    if (m) mb = Number(m[1]);
  }
  return mb;
}

/**
 * Starts a worker thread whose young generation has semi-spaces of at least `semiMb`. Without the
 * flag, the worker's resourceLimits give it (V8 makes a young generation three semi-spaces). Under
 * the flag, V8 takes the flag's value over resourceLimits when the thread makes its heap, and that
 * value is read then, not when the process started: it is raised for the thread's start and put
 * back once the thread runs (or failed to), so that the process's other threads keep theirs. A
 * flag already as large stays as it is.
 */
export function startWorkerWithYoungGeneration(url: URL, semiMb: number): Worker {
  const flag = semiSpaceFlag();
  if (flag === undefined || flag >= semiMb) {
    return new Worker(url, flag === undefined ? { resourceLimits: { maxYoungGenerationSizeMb: 3 * semiMb } } : {});
  }
  raise(semiMb);
  let worker: Worker;
  try {
    worker = new Worker(url);
  } catch (err) {
    lower(flag);
    throw err;
  }
  let done = false;
  const started = () => {
    if (!done) lower(flag);
    done = true;
  };
  worker.once('online', started);
  worker.once('exit', started);
  return worker;
}

/** Threads starting under a raised flag: it is put back when the last of them has made its heap. */
let raised = 0;
let raisedTo = 0;

function raise(semiMb: number): void {
  raisedTo = raised === 0 ? semiMb : Math.max(raisedTo, semiMb);
  raised++;
  v8.setFlagsFromString(`--max-semi-space-size=${raisedTo}`);
}

function lower(flag: number): void {
  if (--raised === 0) v8.setFlagsFromString(`--max-semi-space-size=${flag}`);
}
