/** When to warn about a filling context window and when to compact it, in tokens. */
export interface CompactionThresholds {
  /** At or above this, tell the user the window is getting full (80% of the usable window). */
  warnAt: number;
  /** At or above this, compact before the next request (90% of the usable window). */
  compactAt: number;
}

/**
 * The usable window is the context window minus room for the answer. The reserve is the
 * model's output cap, but never more than a quarter of the window: some catalogs list an
 * output cap close to the window itself (reasoning models), which would otherwise leave
 * no room for the prompt at all.
 */
export function compactionThresholds(contextWindow: number, maxOutputTokens: number): CompactionThresholds {
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) {
    throw new RangeError(`compactionThresholds: contextWindow must be a positive number of tokens, got ${contextWindow}`);
  }
  if (!Number.isFinite(maxOutputTokens) || maxOutputTokens < 0) {
    throw new RangeError(`compactionThresholds: maxOutputTokens must be zero or a positive number of tokens, got ${maxOutputTokens}`);
  }
  const reserve = Math.min(maxOutputTokens, Math.floor(contextWindow / 4));
  const usable = contextWindow - reserve;
  return { warnAt: Math.floor(usable * 0.8), compactAt: Math.floor(usable * 0.9) };
}
