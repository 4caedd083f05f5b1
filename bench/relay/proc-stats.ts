import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** A process's user + system CPU time so far in milliseconds, from /proc (Linux; 10 ms resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name (which may hold spaces): utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** A process's peak resident set size (VmHWM) in MiB, from /proc (Linux). */
export function peakRssMiB(pid: number): number {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kib === undefined ? NaN : Number(kib) / 1024;
}
