import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';

/**
 * What a MySQL server on this machine has done so far: the CPU time of its process, read from
 * /proc (undefined when it is not on this machine), and the statements it has been sent (its
 * Questions counter). A bench reads it before and after a run.
 */
export async function serverCounters(url: string): Promise<{ cpuMs?: number; statements: number }> {
  const c = await mysql.createConnection(url);
  try {
    const [questions] = await c.query("SHOW GLOBAL STATUS LIKE 'Questions'");
    const statements = Number((questions as { Value: string }[])[0]?.Value);
    return { cpuMs: await cpuMsOf(c), statements };
  } finally {
    await c.end();
  }
}

async function cpuMsOf(c: mysql.Connection): Promise<number | undefined> {
  try {
    const [rows] = await c.query("SHOW VARIABLES LIKE 'pid_file'");
    const file = (rows as { Value: string }[])[0]?.Value;
    const pid = file ? readFileSync(file, 'utf8').trim() : '';
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100;
  } catch {
    return undefined;
  }
}
