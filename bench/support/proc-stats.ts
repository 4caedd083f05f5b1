// A process's CPU time and memory, read from /proc (Linux), for the benchmarks that spawn one.
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

/**
 * Minor page faults and system CPU time (ms, in clock ticks) of a process so far, from
 * /proc (Linux): a start's faults are the memory it touches for the first time, and the
 * kernel's time is mostly spent on them.
 */
export function processFaults(pid: number | undefined): { minorFaults: number; systemMs: number } {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return { minorFaults: Number.NaN, systemMs: Number.NaN };
  // Fields 10 (minflt) and 15 (stime), counted after the ")" that ends the command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { minorFaults: Number(fields[7]), systemMs: (Number(fields[12]) * 1000) / 100 };
}

/** A field of /proc/PID/status in MiB (Linux): VmRSS is resident memory now, VmHWM its peak over the process's life. */
export function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kib = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kib === undefined ? NaN : Number(kib) / 1024;
}

/** Samples a process's VmRSS every `everyMs` and keeps the highest; VmHWM catches a peak between samples. */
export function sampleRss(pid: number, everyMs = 20): { stop(): { peakSampledMiB: number; samples: number } } {
  let peak = 0;
  let samples = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, statusMiB(pid, 'VmRSS'));
      samples++;
    } catch {
      // The process has exited; its last samples stand.
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakSampledMiB: peak, samples };
    },
  };
}

/**
 * RSS after a quiet wait, as the median of a few samples a tenth of a second apart:
 * RSS moves in pages as the heap grows and V8 returns memory, so a single read is coarse.
 */
export async function settledRssMiB(pid: number, waitMs: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const reads: number[] = [];
  for (let i = 0; i < 5; i++) {
    reads.push(statusMiB(pid, 'VmRSS'));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return reads.sort((a, b) => a - b)[2]!;
}
