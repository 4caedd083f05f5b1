import { onTestFailed } from 'vitest';

/** A reproducible source of random numbers for a test that picks its own inputs. */
export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(length: number): Buffer;
}

/**
 * mulberry32 seeded from RELIABILITY_SEED, or from the clock when unset. The seed is
 * printed when the test fails, so that run can be replayed exactly:
 * `RELIABILITY_SEED=<seed> npx vitest run <file>`. Call it inside the test.
 */
export function seededRandom(label: string): SeededRandom {
  const fromEnv = process.env.RELIABILITY_SEED;
  const seed = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) >>> 0 : (Date.now() ^ (process.pid << 8)) >>> 0;
  onTestFailed(() => {
    console.error(`${label}: random seed ${seed}; replay with RELIABILITY_SEED=${seed}`);
  });
  return seededRandomFrom(seed);
}

/** The same generator from a given seed (e.g. one drawn from a seededRandom for a concurrent part). */
export function seededRandomFrom(seed: number): SeededRandom {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    bytes: (length) => Buffer.from(Array.from({ length }, () => int(0, 255))),
  };
}
