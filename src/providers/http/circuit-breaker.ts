/** `closed`: calls flow. `open`: calls fail fast. `half_open`: the cool-down passed; calls may try again. */
export type BreakerState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long an open circuit stays open before it lets calls try again. Default 30 000 ms. */
  resetAfterMs?: number;
  /** Clock, injectable for tests. Default Date.now. */
  now?: () => number;
}

interface Circuit {
  failures: number;
  /** When the circuit last opened; undefined while closed. */
  openedAt: number | undefined;
}

/**
 * One circuit per key (the provider id): after `failureThreshold` consecutive
 * availability failures the provider is skipped for `resetAfterMs`, so a dead endpoint
 * costs one fast failure (or a fallback) instead of a full retry cycle per turn. After the
 * cool-down the circuit is half-open: calls go through, the first success closes it and
 * the first failure opens it again for another cool-down.
 */
export class CircuitBreaker {
  private readonly circuits = new Map<string, Circuit>();
  private readonly announced = new Map<string, BreakerState>();
  private readonly failureThreshold: number;
  private readonly resetAfterMs: number;
  private readonly now: () => number;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? 5;
    this.resetAfterMs = options.resetAfterMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** The current state of `key`'s circuit. */
  state(key: string): BreakerState {
    const circuit = this.circuits.get(key);
    if (circuit?.openedAt === undefined) return 'closed';
    return this.now() - circuit.openedAt >= this.resetAfterMs ? 'half_open' : 'open';
  }

  /** What a health report shows of `key`'s circuit, read only: its state, the failures in a row, when it last opened (ms since the epoch). */
  snapshot(key: string): { state: BreakerState; consecutiveFailures: number; openedAt: number | undefined } {
    const circuit = this.circuits.get(key);
    return { state: this.state(key), consecutiveFailures: circuit?.failures ?? 0, openedAt: circuit?.openedAt };
  }

  /** Milliseconds until an open circuit turns half-open (0 when it is not open). */
  remainingOpenMs(key: string): number {
    const openedAt = this.circuits.get(key)?.openedAt;
    if (openedAt === undefined) return 0;
    return Math.max(0, openedAt + this.resetAfterMs - this.now());
  }

  /** A call succeeded: the circuit closes and its failure count resets. */
  recordSuccess(key: string): void {
    this.circuits.delete(key);
  }

  /** A call failed for availability reasons (overload, 5xx, network, stall). */
  recordFailure(key: string): void {
    const circuit = this.circuits.get(key) ?? { failures: 0, openedAt: undefined };
    const state = this.state(key);
    circuit.failures += 1;
    if (state === 'half_open' || (state === 'closed' && circuit.failures >= this.failureThreshold)) circuit.openedAt = this.now();
    this.circuits.set(key, circuit);
  }

  /**
   * The new state of `key` if it changed since the last call, else undefined: each
   * transition is announced once (as a `breaker` stream event) by whoever sees it first.
   */
  takeTransition(key: string): BreakerState | undefined {
    const state = this.state(key);
    if ((this.announced.get(key) ?? 'closed') === state) return undefined;
    this.announced.set(key, state);
    return state;
  }
}
