// A process's CPU time and peak memory, read from /proc (Linux), for the benchmarks that spawn one.
import { existsSync, readFileSync } from 'node:fs';

/**
 * User and system CPU time of a process so far, from /proc (Linux), in ms: unlike the wall
 * clock, it does not count the time a process waited for a core on a busy machine.
 * Counted in clock ticks (10 ms here), so compare medians of many runs.
 */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return Number.NaN;
  // Fields 14 and 15 (utime, stime) in clock ticks, counted after the ")" that ends the command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A process's peak resident set size (VmHWM) in MiB, from /proc (Linux). */
export function peakRssMiB(pid: number): number {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kib === undefined ? NaN : Number(kib) / 1024;
}
