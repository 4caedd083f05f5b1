import { performance } from 'node:perf_hooks';

/** Timing summary of one benchmark case, in milliseconds. */
export interface Timing {
  runs: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
}

export function summarise(times: number[]): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]!;
  return { runs: times.length, medianMs: round(median), p90Ms: round(p90), minMs: round(sorted[0]!) };
}

export function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * Times each case `runs` times after `warmup` untimed runs, interleaving the cases run by
 * run so that a slow phase of the machine (another process, cache eviction) hits all of
 * them alike.
 */
export async function timeInterleaved(cases: Record<string, () => Promise<unknown>>, runs: number, warmup: number): Promise<Record<string, Timing>> {
  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < warmup + runs; i += 1) {
    for (const name of names) {
      const start = performance.now();
      await cases[name]!();
      if (i >= warmup) times[name]!.push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarise(times[name]!)]));
}
