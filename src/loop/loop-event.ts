import type { AssistantMessage, ModelMessage } from '../providers/message.js';
import type { ProviderError } from '../providers/provider-error.js';
import type { Usage } from '../providers/usage.js';

/** Why a turn ended; the ACP StopReason values. */
export type TurnStopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';

/** Everything the loop reports while it runs a turn. */
export type LoopEvent =
  /** A piece of the assistant's visible answer; `messageId` groups the pieces of one message. */
  | { type: 'text_delta'; messageId: string; text: string }
  /** A piece of the assistant's reasoning. */
  | { type: 'thinking_delta'; messageId: string; text: string }
  /** A message was written to the store (never a delta). */
  | { type: 'message_committed'; message: ModelMessage; status: 'complete' | 'interrupted' }
  /** Tokens and cost of one provider response, and the session's running totals. */
  | {
      type: 'usage';
      usage: Usage;
      model: string;
      costUsd: number;
      sessionCostUsd: number;
      /** Tokens now in the context window, and its size. */
      contextTokens: number;
      contextWindow: number;
    }
  /** The provider layer is retrying after a failure before the first token. */
  | { type: 'retry'; attempt: number; delayMs: number; error: ProviderError }
  /** The fallback model took over from the primary. */
  | { type: 'fallback'; from: string; to: string; error: ProviderError }
  /** A provider's circuit breaker changed state. */
  | { type: 'breaker'; provider: string; state: 'open' | 'half_open' | 'closed' }
  /** Something the user should know that is not part of the answer (e.g. a provider failure). */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string };

/** The outcome of runLoop. */
export interface LoopResult {
  stopReason: TurnStopReason;
  /** The last assistant message, when one was produced. */
  lastMessage: AssistantMessage | undefined;
  /** Set when the turn ended because of a provider failure. */
  error?: ProviderError;
}
