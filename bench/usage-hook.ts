import { writeFileSync } from 'node:fs';

/**
 * Loaded with `node --import` into a process a bench measures: at exit it writes the process's
 * own CPU time and peak RSS to the file ANWC_BENCH_USAGE names (Node gives no child's rusage).
 */
const out = process.env.ANWC_BENCH_USAGE;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS }));
  });
}
