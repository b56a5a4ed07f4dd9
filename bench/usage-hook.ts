import { writeFileSync } from 'node:fs';
import { Socket } from 'node:net';

/**
 * Loaded with `node --import` into a process a bench measures: at exit it writes the process's
 * own CPU time and peak RSS to the file ANWC_BENCH_USAGE names (Node gives no child's rusage),
 * and, when ANWC_BENCH_DB_PORT names the database's port, the writes the process made to it:
 * one a round trip, as the MySQL client sends each command in one write.
 */
const out = process.env.ANWC_BENCH_USAGE;
const dbPort = Number(process.env.ANWC_BENCH_DB_PORT ?? 0);
let dbWrites = 0;
if (dbPort > 0) {
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (this.remotePort === dbPort) dbWrites++;
    return write.apply(this, args);
  } as Socket['write'];
}
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS, dbWrites }));
  });
}
