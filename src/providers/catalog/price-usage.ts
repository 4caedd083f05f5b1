import type { Usage } from '../usage.js';
import type { ModelInfo } from './model-info.js';

/** The cost of one response, in USD, with its parts. */
export interface UsageCost {
  /** The total: the sum of the breakdown. */
  usd: number;
  breakdown: {
    /** Input tokens at the normal rate. */
    input: number;
    /** Output tokens, reasoning included. */
    output: number;
    /** Input tokens read from the prompt cache. */
    cacheRead: number;
    /** Input tokens written to the prompt cache. */
    cacheWrite: number;
  };
}

const PER_TOKEN = 1 / 1_000_000;

/**
 * Prices one response. The four input counts of Usage never overlap (`inputTokens` already
 * excludes cache reads and writes), so each is billed once at its own rate; a missing
 * cache price bills at the input price, which never under-counts. Reasoning tokens are part
 * of `outputTokens` and billed with them.
 */
export function priceUsage(info: ModelInfo, usage: Usage): UsageCost {
  const breakdown = {
    input: usage.inputTokens * info.inputPrice * PER_TOKEN,
    output: usage.outputTokens * info.outputPrice * PER_TOKEN,
    cacheRead: usage.cacheReadTokens * (info.cacheReadPrice ?? info.inputPrice) * PER_TOKEN,
    cacheWrite: usage.cacheWriteTokens * (info.cacheWritePrice ?? info.inputPrice) * PER_TOKEN,
  };
  return { usd: breakdown.input + breakdown.output + breakdown.cacheRead + breakdown.cacheWrite, breakdown };
}
