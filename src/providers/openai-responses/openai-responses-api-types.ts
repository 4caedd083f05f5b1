/**
 * The parts of the OpenAI Responses wire format this adapter reads and writes, typed from
 * the API reference (https://platform.openai.com/docs/api-reference/responses/create and
 * https://platform.openai.com/docs/api-reference/responses-streaming). Only the fields we
 * use are declared; the vendor adds fields freely, so every read is defensive.
 */

/** One item of the request's `input` array. */
export type ResponsesInputItem =
  | {
      /** A user or assistant message; assistant history uses `output_text` parts. */
      role: 'user' | 'assistant';
      content: ResponsesInputContent[];
    }
  | {
      /** A past tool call, matched to its output by `call_id`. */
      type: 'function_call';
      call_id: string;
      name: string;
      /** The JSON arguments as a string, exactly as the model produced them. */
      arguments: string;
    }
  | {
      /** A tool result for the call with this `call_id` (not the `fc_` item id). */
      type: 'function_call_output';
      call_id: string;
      output: string | ResponsesInputContent[];
    }
  | {
      /** A reasoning item replayed statelessly (`store: false`) through its encrypted content. */
      type: 'reasoning';
      id: string;
      encrypted_content: string;
      summary: Array<{ type: 'summary_text'; text: string }>;
    };

/** A content part inside an input message. */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  /** `image_url` is a `data:<mime>;base64,<data>` URL. */
  | { type: 'input_image'; image_url: string }
  | { type: 'output_text'; text: string };

/** A function tool definition. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Strict mode rejects schemas with optional properties, so we never turn it on. */
  strict: false;
}

/** Reasoning effort values accepted by `reasoning.effort`. */
export type ResponsesReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

/** The POST /responses body we send. */
export interface ResponsesRequestBody {
  model: string;
  stream: true;
  /** Never keep the response server-side: history is replayed in full every turn. */
  store: false;
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: ResponsesFunctionTool[];
  max_output_tokens?: number;
  temperature?: number;
  include?: Array<'reasoning.encrypted_content'>;
  reasoning?: { effort?: ResponsesReasoningEffort; summary: 'auto' };
}

/** The `response.usage` object of `response.completed` / `response.incomplete`. */
export interface ResponsesUsage {
  /** All input tokens, cached ones included. */
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  /** All output tokens, reasoning included. */
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** The error object of `response.failed` and of `error` events. */
export interface ResponsesErrorObject {
  type?: string | null;
  code?: string | null;
  message?: string | null;
  param?: string | null;
}
