import type { ThinkingLevel } from '../request.js';
import type { ReasoningTagSetting } from './resolve-reasoning-tags.js';

/**
 * What a Chat Completions server accepts, where servers differ. Presets set these per
 * provider; config can override them. Every field is optional and defaults to what
 * most OpenAI-compatible servers accept.
 */
export interface OpenAIChatQuirks {
  /**
   * Field carrying the output cap. OpenAI deprecated `max_tokens` for
   * `max_completion_tokens`, and its reasoning models reject `max_tokens`
   * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-max_tokens);
   * many compatible servers only know `max_tokens`. Default `max_tokens`.
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Send `stream_options: {include_usage: true}` so the last chunk carries usage
   * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options).
   * Turn off for servers that reject unknown parameters. Default true.
   */
  streamUsage?: boolean;
  /**
   * Regular expression (source, case-insensitive) matching the model ids that reason and
   * accept `reasoning_effort`. For those models the thinking level is sent as
   * `reasoning_effort`, the system prompt uses `reasoningSystemRole`, and `temperature`
   * is left out (OpenAI's reasoning models reject it). Default: no model.
   */
  reasoningModels?: string;
  /**
   * Role of the system prompt for reasoning models. OpenAI's o-series and gpt-5 take
   * `developer` (https://platform.openai.com/docs/guides/reasoning); default `system`.
   */
  reasoningSystemRole?: 'system' | 'developer';
  /**
   * ThinkingLevel → `reasoning_effort` value; null leaves the field out (server default).
   * Merged over the default table: off → null, minimal → "minimal", low → "low",
   * medium → "medium", high → "high".
   */
  reasoningEffort?: Partial<Record<ThinkingLevel, string | null>>;
  /**
   * Send earlier reasoning back as `reasoning_content` on assistant messages. DeepSeek's
   * thinking mode needs it within a tool-calling turn
   * (https://api-docs.deepseek.com/guides/thinking_mode); other servers may reject it.
   * Default false: reasoning is not replayed.
   */
  replayReasoningContent?: boolean;
  /**
   * The tags that wrap reasoning inside `content` (`"think"` for `<think>…</think>`, the
   * two tags spelled out, or false to show the text as it comes); a model's own
   * `models.<id>.reasoningTag` wins. Default: `<think>` for the known open reasoning
   * families (see resolveReasoningTags), none for other models. The reasoning read from
   * tags is thinking like `reasoning_content`, and like it is not sent back (the R1, QwQ
   * and Qwen3 chat templates strip it from earlier turns anyway).
   */
  reasoningTag?: ReasoningTagSetting;
}

const defaultEffort: Record<ThinkingLevel, string | null> = {
  off: null,
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

/** Whether `modelId` is a reasoning model under these quirks. */
export function isReasoningModel(quirks: OpenAIChatQuirks, modelId: string): boolean {
  if (quirks.reasoningModels === undefined || quirks.reasoningModels === '') return false;
  return new RegExp(quirks.reasoningModels, 'i').test(modelId);
}

/** The `reasoning_effort` to send for a thinking level, or undefined to send none. */
export function reasoningEffortFor(quirks: OpenAIChatQuirks, level: ThinkingLevel | undefined): string | undefined {
  if (level === undefined) return undefined;
  const table = { ...defaultEffort, ...quirks.reasoningEffort };
  return table[level] ?? undefined;
}
