/** Exponential backoff settings for restarting a crashed MCP server. */
export interface Backoff {
  /** Delay before the first restart. */
  initialMs: number;
  /** The delay never grows beyond this. */
  maxMs: number;
}

/** 1 s, 2 s, 4 s, … capped at 30 s. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 30_000 };

/** The wait before restart number `attempt` (1-based): initial × 2^(attempt−1), capped. */
export function restartDelay(attempt: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
}
