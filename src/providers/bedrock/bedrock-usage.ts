import type { Usage } from '../usage.js';

/** The `metadata` event's usage (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html). */
export interface BedrockUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens?: number | undefined;
  cacheWriteInputTokens?: number | undefined;
}

/** `inputTokens` already excludes cache reads and writes (TokenUsage: they are counted apart), as Usage wants. */
export function toUnifiedBedrockUsage(usage: BedrockUsage): Usage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadInputTokens ?? 0,
    cacheWriteTokens: usage.cacheWriteInputTokens ?? 0,
    reasoningTokens: 0,
  };
}
