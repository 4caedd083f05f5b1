import { readdirSync, readFileSync } from 'node:fs';

/** The pid and every descendant of it, from /proc/<pid>/task/<tid>/children (Linux ≥ 3.5). */
export function processTree(root: number): number[] {
  const pids: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    pids.push(pid);
    for (const tid of readDir(`/proc/${pid}/task`)) {
      const children = readText(`/proc/${pid}/task/${tid}/children`);
      if (children) for (const child of children.trim().split(/\s+/)) if (child) pending.push(Number(child));
    }
  }
  return pids;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM); 0 once the process is gone. */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readText(`/proc/${pid}/status`);
  const match = status ? new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status) : null;
  return match ? Number(match[1]) * 1024 : 0;
}

export interface TreeMemory {
  peakRssBytes: number;
  /** Each process of the tree at the peak sample: its name (/proc/<pid>/comm) and VmRSS. */
  peakBreakdown: Array<{ name: string; rssMiB: number }>;
  hwmSumBytes: number;
  processes: number;
}

/**
 * Proportional set size of the tree (/proc/<pid>/smaps_rollup `Pss`): shared pages split
 * among the processes sharing them, so a child between fork and exec, which VmRSS counts
 * again in full, adds only what it owns. Too slow to sample (≈12 ms per read of a 260 MiB
 * process), so read once, where the caller asks.
 */
export function treePssBytes(root: number): number {
  let sum = 0;
  for (const pid of processTree(root)) {
    const match = /^Pss:\s+(\d+) kB/m.exec(readText(`/proc/${pid}/smaps_rollup`) ?? '');
    if (match) sum += Number(match[1]) * 1024;
  }
  return sum;
}

/**
 * Samples the resident memory of a process and all its descendants every `intervalMs`:
 * the largest sum of VmRSS seen, and each process's own high-water mark (VmHWM, which
 * catches a peak between two samples) summed over every process the tree ever held.
 */
export function sampleTreeMemory(root: number, intervalMs = 20): { stop(): TreeMemory } {
  let peakRssBytes = 0;
  let peakBreakdown: TreeMemory['peakBreakdown'] = [];
  const hwm = new Map<number, number>();
  const sample = (): void => {
    let sum = 0;
    const breakdown: TreeMemory['peakBreakdown'] = [];
    for (const pid of processTree(root)) {
      const rss = statusBytes(pid, 'VmRSS');
      sum += rss;
      breakdown.push({ name: (readText(`/proc/${pid}/comm`) ?? '?').trim(), rssMiB: Math.round((rss / 1048576) * 10) / 10 });
      const high = statusBytes(pid, 'VmHWM');
      if (high > (hwm.get(pid) ?? 0)) hwm.set(pid, high);
    }
    if (sum > peakRssBytes) {
      peakRssBytes = sum;
      peakBreakdown = breakdown;
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  let result: TreeMemory | undefined;
  return {
    /** Takes a last sample and stops; later calls return the same figures. */
    stop() {
      if (result) return result;
      sample();
      clearInterval(timer);
      let hwmSumBytes = 0;
      for (const bytes of hwm.values()) hwmSumBytes += bytes;
      result = { peakRssBytes, peakBreakdown, hwmSumBytes, processes: hwm.size };
      return result;
    },
  };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
