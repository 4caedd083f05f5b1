/**
 * The subset of the Anthropic Messages API wire format this protocol sends and reads.
 * Request shapes: https://docs.anthropic.com/en/api/messages
 * Stream events:  https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */

/** Marks the end of a cacheable prefix (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). */
export interface AnthropicCacheControl {
  type: 'ephemeral';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string };
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

/**
 * A server-tool block (`server_tool_use`, `web_search_tool_result`, ...) sent back exactly
 * as the API streamed it; its fields are Anthropic's and are not read here.
 */
export type AnthropicServerToolBlock = Record<string, unknown> & { type: string };

export type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock;
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerToolBlock;

export type AnthropicMessage =
  | { role: 'user'; content: AnthropicUserBlock[] }
  | { role: 'assistant'; content: AnthropicAssistantBlock[] };

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The body POSTed to `/v1/messages`. */
export interface AnthropicMessagesBody {
  model: string;
  max_tokens: number;
  stream: true;
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  thinking?: { type: 'enabled'; budget_tokens: number };
  temperature?: number;
  stop_sequences?: string[];
}

/** `usage` as sent in `message_start.message.usage` and (cumulatively) in `message_delta.usage`. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** The `error` object of an HTTP error body or of an `error` stream event. */
export interface AnthropicErrorObject {
  type?: string;
  message?: string;
}
