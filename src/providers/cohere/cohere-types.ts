/**
 * The subset of Cohere's Chat API v2 wire format this protocol sends
 * (https://docs.cohere.com/reference/chat-stream; the OpenAPI spec in
 * github.com/cohere-ai/cohere-developer-experience, `cohere-openapi.yaml`, `/v2/chat`).
 */

export interface CohereTextContent {
  type: 'text';
  text: string;
}

export interface CohereImageContent {
  type: 'image_url';
  /** A web URL or a base64 `data:` URI. */
  image_url: { url: string };
}

/** Reasoning a Cohere reasoning model produced, sent back in its assistant message. */
export interface CohereThinkingContent {
  type: 'thinking';
  thinking: string;
}

export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | Array<CohereTextContent | CohereImageContent> }
  | {
      role: 'assistant';
      content?: Array<CohereTextContent | CohereThinkingContent>;
      /** The model's plan before its tool calls (`tool-plan-delta` in the stream). */
      tool_plan?: string;
      tool_calls?: CohereToolCall[];
    }
  | { role: 'tool'; tool_call_id: string; content: CohereTextContent[] };

/** A tool in the v2 format: `{type: "function", function: {name, description, parameters}}`. */
export interface CohereTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The body POSTed to `/v2/chat`. */
export interface CohereChatBody {
  model: string;
  messages: CohereMessage[];
  stream: true;
  tools?: CohereTool[];
  max_tokens?: number;
  temperature?: number;
  stop_sequences?: string[];
  /** Reasoning models only (https://docs.cohere.com/docs/reasoning). */
  thinking?: { type: 'enabled' | 'disabled'; token_budget?: number };
}
