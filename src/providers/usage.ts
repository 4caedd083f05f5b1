/**
 * Token usage of one provider response. Every count is for that response alone, with
 * cumulative vendor snapshots (Anthropic, Gemini) already reduced to final values.
 * `inputTokens` excludes cache reads and writes, so the four input counts never overlap
 * and pricing can add them without double counting.
 */
export interface Usage {
  /** Input tokens billed at the normal rate (cache reads and writes excluded). */
  inputTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: number;
  /** Of `outputTokens`, how many were reasoning. */
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

/** Total prompt size the model saw: what fills the context window. */
export function contextTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens;
}
