export interface BackoffDelayOptions {
  /** Which retry this is, counting from 1. */
  attempt: number;
  /** Upper bound of the first retry's delay. Default 1 000 ms. */
  baseMs?: number;
  /** No delay is ever longer than this, not even one the server asked for. */
  maxDelayMs: number;
  /** The delay the server asked for (retry-after), which wins over the computed one. */
  retryAfterMs?: number;
  /** Source of randomness in [0, 1); injectable for tests. Default Math.random. */
  random?: () => number;
}

/**
 * How long to wait before a retry. When the vendor named a delay, that delay (capped by
 * `maxDelayMs`). Otherwise exponential backoff with full jitter: a uniform pick in
 * [0, min(maxDelayMs, baseMs × 2^(attempt−1))), which spreads out clients that failed
 * together (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
 */
export function backoffDelay(options: BackoffDelayOptions): number {
  const max = Math.max(0, options.maxDelayMs);
  if (options.retryAfterMs !== undefined) return Math.min(Math.max(0, options.retryAfterMs), max);
  const ceiling = Math.min(max, (options.baseMs ?? 1_000) * 2 ** Math.max(0, options.attempt - 1));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}
