import type { Usage } from '../usage.js';
import type { ResponsesUsage } from './openai-responses-api-types.js';

/**
 * Responses usage (https://platform.openai.com/docs/api-reference/responses/object#usage):
 * `input_tokens` counts every input token, cached ones included, so the cached count is
 * subtracted to keep the unified counts disjoint. OpenAI caches prefixes automatically and
 * bills no cache writes, so `cacheWriteTokens` is always 0. `output_tokens` already includes
 * `output_tokens_details.reasoning_tokens`.
 */
export function mapOpenAIResponsesUsage(usage: ResponsesUsage | null | undefined): Usage {
  const input = usage?.input_tokens ?? 0;
  const cached = Math.min(usage?.input_tokens_details?.cached_tokens ?? 0, input);
  return {
    inputTokens: input - cached,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
