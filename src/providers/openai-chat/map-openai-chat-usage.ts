import type { Usage } from '../usage.js';
import type { ChatUsage } from './openai-chat-stream-schema.js';

/**
 * Map Chat Completions usage to unified usage. Cached prompt tokens are part of
 * `prompt_tokens` on every server that reports them (OpenAI `prompt_tokens_details.cached_tokens`
 * per https://platform.openai.com/docs/guides/prompt-caching, DeepSeek
 * `prompt_cache_hit_tokens`, Moonshot `cached_tokens`), so they are subtracted to keep
 * the unified counts disjoint. Reasoning tokens stay inside `outputTokens`.
 */
export function mapOpenAIChatUsage(usage: ChatUsage): Usage {
  const prompt = count(usage.prompt_tokens);
  const cached = Math.min(
    prompt,
    count(usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? usage.cached_tokens),
  );
  return {
    inputTokens: prompt - cached,
    outputTokens: count(usage.completion_tokens),
    cacheReadTokens: cached,
    // Chat Completions servers cache automatically and bill no separate cache writes.
    cacheWriteTokens: 0,
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
  };
}

function count(value: number | undefined | null): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
