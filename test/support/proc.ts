import { readdirSync, readFileSync } from 'node:fs';

/** State and parent of a process from /proc (the fields after the command name in parentheses); undefined once it is gone. */
export function procStat(pid: number | string): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

export const childrenOf = (pid: number): number[] => readdirSync('/proc').filter((d) => /^\d+$/.test(d) && procStat(d)?.ppid === pid).map(Number);

/** Running, not a zombie that nobody has reaped yet. */
export const alive = (pid: number): boolean => { const s = procStat(pid); return s !== undefined && s.state !== 'Z'; };

/** A process's arguments, the program first; empty once it is gone. */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
