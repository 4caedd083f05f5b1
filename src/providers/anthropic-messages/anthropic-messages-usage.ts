import type { Usage } from '../usage.js';
import type { AnthropicUsage } from './anthropic-messages-types.js';

const COUNTS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/**
 * Fold a `message_delta` usage into what `message_start` reported. The delta's counts are
 * cumulative (https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types),
 * so each count it carries replaces the earlier one; adding them double-counts input and
 * cache tokens, a bug several gateways shipped. Counts it leaves out keep their value.
 */
export function mergeAnthropicMessagesUsage(base: AnthropicUsage | undefined, update: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...base };
  for (const key of COUNTS) {
    const value = update[key];
    if (typeof value === 'number') merged[key] = value;
  }
  return merged;
}

/**
 * Anthropic usage → unified usage. `input_tokens` already excludes cache reads and writes
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance);
 * thinking tokens are billed as output and not reported apart, so reasoningTokens stays 0.
 */
export function toUnifiedUsage(usage: AnthropicUsage): Usage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    reasoningTokens: 0,
  };
}
