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

/** Token usage as OpenAI and the compatible servers report it. */
export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  /** OpenAI: `cached_tokens` are prompt tokens read from the cache (included in prompt_tokens). */
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** OpenAI: `reasoning_tokens` are part of completion_tokens. */
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek (https://api-docs.deepseek.com/api/create-chat-completion): cache hits, included in prompt_tokens. */
  prompt_cache_hit_tokens?: number;
  /** Moonshot: cache hits at the top level of usage, included in prompt_tokens. */
  cached_tokens?: number;
}

/** One piece of a tool call inside a streamed delta. */
export interface ChatToolCallDelta {
  /** Which call this piece belongs to; some servers omit it. */
  index?: number;
  /** Present on the first piece of a call; some servers send "" or omit it. */
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** A vendor error object, in an error response body or an SSE frame. */
export interface ChatErrorBody {
  message?: string;
  type?: string | null;
  /** OpenAI uses strings (`context_length_exceeded`); OpenRouter and vLLM put the HTTP status here. */
  code?: string | number | null;
  param?: string | null;
}

/** A typed part of an array-valued `delta.content` (Mistral; see read-openai-chat-content.ts). */
export interface ChatDeltaContentPart {
  type?: string;
  text?: string | null;
  /** Mistral reasoning: text parts nested in a `thinking` part. */
  thinking?: Array<{ type?: string; text?: string | null }> | string | null;
}

/** `delta.content`: a string (OpenAI) or an array of typed parts (Mistral reasoning models). */
export type ChatDeltaContent = string | ChatDeltaContentPart[];

/** One `chat.completion.chunk`. */
export interface ChatChunk {
  id?: string;
  choices?: Array<{
    index?: number;
    delta?: {
      role?: string;
      content?: ChatDeltaContent | null;
      /** OpenAI: the model's refusal text, instead of content. */
      refusal?: string | null;
      /** DeepSeek, Qwen, llama.cpp, older vLLM: reasoning text. */
      reasoning_content?: string | null;
      /** OpenRouter, Ollama, Groq, newer vLLM: reasoning text. */
      reasoning?: string | null;
      tool_calls?: ChatToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: ChatUsage | null;
  /** Groq reports usage here on the last chunk (https://console.groq.com/docs/openai). */
  x_groq?: { usage?: ChatUsage | null } | null;
  /** A mid-stream failure (OpenAI, vLLM, OpenRouter); a string on some servers. */
  error?: ChatErrorBody | string | null;
}
