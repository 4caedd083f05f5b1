/**
 * The unified conversation model shared by every provider, the loop and the store.
 * Messages are stored exactly in this shape (content blocks as JSON), so a field added
 * here must stay optional for rows written before it existed.
 */

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, inline as base64. */
export interface ImagePart {
  type: 'image';
  /** Base64 data without a `data:` prefix. */
  data: string;
  /** e.g. `image/png`. */
  mimeType: string;
}

/**
 * Model reasoning. `signature` (Anthropic, Gemini `thoughtSignature`) and `redacted`
 * data must be sent back unchanged on the next request or the vendor rejects the turn.
 */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  /** Vendor signature proving the reasoning was not altered. */
  signature?: string;
  /** Anthropic `redacted_thinking` data or OpenAI Responses `encrypted_content`. */
  redacted?: string;
  /** Which wire protocol produced it; reasoning is only replayed to the same protocol. */
  providerProtocol?: string;
  /** Opaque vendor data needed to replay it (e.g. a Responses reasoning item id). */
  providerData?: Record<string, unknown>;
}

/** A call the model asks for. */
export interface ToolCallPart {
  type: 'tool_call';
  /** Id linking the result back (OpenAI `call_id`, Anthropic `tool_use.id`; generated when absent). */
  id: string;
  name: string;
  /** Parsed JSON arguments; `{}` when the model sent none. */
  args: Record<string, unknown>;
  /** Set when the arguments could not be parsed (e.g. cut off by max_tokens). */
  argsError?: string;
  /** Opaque vendor data to replay (e.g. Gemini `thoughtSignature`, Responses item id). */
  providerData?: Record<string, unknown>;
}

/**
 * A block a vendor's own tools produced inside the answer (Anthropic server tools:
 * `server_tool_use`, `web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, ...). Anthropic requires these blocks sent back
 * unchanged in later requests
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool), so the
 * raw block is kept; other protocols cannot read it and skip it.
 */
export interface ServerToolPart {
  type: 'server_tool';
  /** The only protocol that can take the block back. */
  providerProtocol: 'anthropic-messages';
  /** The vendor's block JSON, exactly as it was streamed (input assembled from its deltas). */
  block: Record<string, unknown>;
}

/** The answer to a tool call, in a `tool` message. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  /** The tool's name, needed by vendors (Gemini) that match results by name. */
  toolName: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
}

export type UserContentPart = TextPart | ImagePart;
export type AssistantContentPart = TextPart | ThinkingPart | ToolCallPart | ServerToolPart;

export interface UserMessage {
  role: 'user';
  content: UserContentPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentPart[];
  /**
   * `provider/model` that wrote it, when known: its reasoning and vendor data are sent back
   * only to that model (convertHistoryForModel). Kept in the store's `model` column.
   */
  model?: string;
}

export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

/** One message of the conversation as every provider sees it. */
export type ModelMessage = UserMessage | AssistantMessage | ToolMessage;
