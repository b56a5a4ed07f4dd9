import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';

/**
 * Loaded with `node --import` into a process a bench measures: at exit it writes the process's
 * own CPU time and peak RSS to the file ANWC_BENCH_USAGE names (Node gives no child's rusage),
 * and, when ANWC_BENCH_DB_PORT names the database's port, the writes the process made to it:
 * one a round trip, as the MySQL client sends each command in one write. A crawl's store talks to
 * the server from a thread of its own, where `--import` does not reach: each Worker the process
 * starts loads this file first, and counts its writes into memory the threads share.
 */
const out = process.env.ANWC_BENCH_USAGE;
const dbPort = Number(process.env.ANWC_BENCH_DB_PORT ?? 0);
const SHARED = 'anwc-bench-db-writes';

const writes = isMainThread ? new Int32Array(new SharedArrayBuffer(4)) : (getEnvironmentData(SHARED) as Int32Array);
if (dbPort > 0) {
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (this.remotePort === dbPort) Atomics.add(writes, 0, 1);
    return write.apply(this, args);
  } as Socket['write'];
  if (isMainThread) {
    setEnvironmentData(SHARED, writes);
    loadIntoWorkers(import.meta.url);
  }
}
if (isMainThread && out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: peakRssKb() ?? u.maxRSS, dbWrites: Atomics.load(writes, 0) }));
  });
}

/**
 * The process's own peak resident memory, where Linux tells it (VmHWM). Its rusage peak is not
 * that: Linux keeps it across exec, so a child started by a bench that holds 280 MB reports at
 * least 280 MB, whatever it used (the crawl bench's sweep, run after its real pages, read 284 MB
 * for a harvest of 1,020 pages).
 */
function peakRssKb(): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Every Worker started from a file runs `hook` before it: a small script imports both, in turn. */
function loadIntoWorkers(hook: string): void {
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const Original = threads.Worker;
  threads.Worker = class extends Original {
    constructor(file: string | URL, options: import('node:worker_threads').WorkerOptions = {}) {
      if (options.eval) {
        super(file, options);
        return;
      }
      // A path is the working directory's, as Worker takes it.
      const target = file instanceof URL ? file.href : pathToFileURL(file).href;
      super(`import(${JSON.stringify(hook)}).then(() => import(${JSON.stringify(target)}))`, { ...options, eval: true });
    }
  };
  syncBuiltinESMExports();
}
