import type { StopReason } from './stop-reason.js';
import type { Usage } from './usage.js';
import type { ProviderError } from './provider-error.js';

/**
 * The one stream every provider yields. A well-formed stream is any number of content
 * events, then at most one `usage` per snapshot, then exactly one `stop`. A failing
 * stream ends with `error` instead of `stop`, after whatever content it produced.
 *
 * The content events (text, thinking, tool calls) are the *semantic* ones: once one has
 * been yielded, a failure can no longer be retried transparently. `retry` and `breaker`
 * are notices from the resilience layer (withResilience), never semantic;
 * they may appear anywhere before the final `stop` or `error`, and a consumer that only
 * builds the message can ignore them.
 */
export type StreamEvent =
  /** A piece of visible answer text. */
  | { type: 'text-delta'; text: string }
  /**
   * The current text part is complete: the next `text-delta` begins a new part. Sent
   * where the vendor separates text blocks (Anthropic `content_block_stop`, a Responses
   * `message` item's end), so two blocks never run together as one text.
   */
  | { type: 'text-end' }
  /** A piece of reasoning text. */
  | { type: 'thinking-delta'; text: string }
  /** The signature or redacted data closing a reasoning block. */
  | { type: 'thinking-signature'; signature?: string; redacted?: string; providerData?: Record<string, unknown> }
  /** A tool call begins; `id` is stable for the rest of the stream. */
  | { type: 'tool-call-start'; id: string; name: string }
  /** A raw piece of the call's JSON arguments. */
  | { type: 'tool-call-delta'; id: string; argsDelta: string }
  /** The call is complete, with its arguments parsed once (`{}` when empty). */
  | {
      type: 'tool-call-end';
      id: string;
      name: string;
      args: Record<string, unknown>;
      /** Set instead of args when the JSON could not be parsed. */
      argsError?: string;
      providerData?: Record<string, unknown>;
    }
  /**
   * A block the vendor ran itself (Anthropic `server_tool_use`, `web_search_tool_result`
   * and kin), complete and exactly as received; it is kept in the message and replayed
   * unchanged to the same protocol, which requires it.
   */
  | { type: 'server-tool'; providerProtocol: 'anthropic-messages'; block: Record<string, unknown> }
  /**
   * Something in the response that agentd does not act on (e.g. a Responses item type
   * the loop does not run); the message says what, for the user to see.
   */
  | { type: 'notice'; message: string }
  /** Usage so far for this response; a later event replaces an earlier one. */
  | { type: 'usage'; usage: Usage }
  /** The response ended normally. */
  | { type: 'stop'; reason: StopReason }
  /** The response failed; content before it is still valid and kept. */
  | { type: 'error'; error: ProviderError }
  /**
   * An attempt failed before any content and will be retried after `delayMs`;
   * `attempt` counts retries from 1, `error` is the failure that caused it.
   */
  | { type: 'retry'; attempt: number; delayMs: number; error: ProviderError }
  /** The circuit breaker of `provider` changed state during this response. */
  | { type: 'breaker'; provider: string; state: 'open' | 'half_open' | 'closed' };
