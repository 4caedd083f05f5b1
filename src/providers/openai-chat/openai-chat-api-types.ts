/**
 * The parts of the Chat Completions wire format this adapter reads and writes, typed
 * from the API reference (https://platform.openai.com/docs/api-reference/chat/create and
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming). Compatible
 * servers add and omit fields freely, so every field of a chunk is optional and every
 * read is defensive.
 */

/** A content part of a user message. */
export type ChatContentPart =
  | { type: 'text'; text: string }
  /** `url` is a `data:<mime>;base64,<data>` URL; we never send remote URLs. */
  | { type: 'image_url'; image_url: { url: string } };

/** A tool call as it appears in assistant history. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  /** `arguments` is the JSON arguments object as a string. */
  function: { name: string; arguments: string };
}

/** One message of the request's `messages` array. */
export type ChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | {
      role: 'assistant';
      /** Null when the turn only called tools (the API accepts null there). */
      content: string | null;
      tool_calls?: ChatToolCall[];
      /** DeepSeek thinking mode: the reasoning sent back within a tool-calling turn. */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function tool definition. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The POST /chat/completions body we send. */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  stream: true;
  /** Asks for a final chunk with `usage` and empty `choices`. */
  stream_options?: { include_usage: true };
  tools?: ChatTool[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  stop?: string[];
  reasoning_effort?: string;
}

/** A vendor error object, in an error response body or an SSE frame. */
export interface ChatErrorBody {
  message?: string | null;
  type?: string | null;
  /** OpenAI uses strings (`context_length_exceeded`); OpenRouter and vLLM put the HTTP status here. */
  code?: string | number | null;
  param?: string | null;
}
