import type { AssistantMessage, ModelMessage } from '../providers/message.js';
import type { ProviderError } from '../providers/provider-error.js';
import type { Usage } from '../providers/usage.js';
import type { PlanEntry, StopReason, ToolCallContent, ToolCallLocation, ToolKind } from '../../protocol/index.js';

/** Why a turn ended: ACP's StopReason, from the protocol schema. */
export type TurnStopReason = StopReason;

/** Everything the loop reports while it runs a turn. */
export type LoopEvent =
  /** A piece of the assistant's visible answer; `messageId` groups the pieces of one message. */
  | { type: 'text_delta'; messageId: string; text: string }
  /** A piece of the assistant's reasoning. */
  | { type: 'thinking_delta'; messageId: string; text: string }
  /** A message was written to the store (never a delta). */
  | { type: 'message_committed'; message: ModelMessage; status: 'complete' | 'interrupted' }
  /** Tokens and cost of one provider response, and the running totals. */
  | {
      type: 'usage';
      usage: Usage;
      model: string;
      costUsd: number;
      turnCostUsd: number;
      sessionCostUsd: number;
      daemonCostUsd: number;
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
  /** A tool call arrived from the model (ACP `tool_call`, status pending). */
  | {
      type: 'tool_call';
      toolCallId: string;
      name: string;
      title: string;
      kind: ToolKind;
      rawInput: Record<string, unknown>;
      locations: ToolCallLocation[];
    }
  /** A tool call progressed or finished (ACP `tool_call_update`). */
  | {
      type: 'tool_call_update';
      toolCallId: string;
      status: 'in_progress' | 'completed' | 'failed';
      content?: ToolCallContent[];
      rawOutput?: unknown;
    }
  /** The agent's plan, replaced as a whole (ACP `plan`). */
  | { type: 'plan'; entries: PlanEntry[] }
  /** Context compaction started, finished or failed. */
  | {
      type: 'compaction';
      compactionId: string;
      status: 'started' | 'completed' | 'failed';
      tokensBefore?: number;
      tokensAfter?: number;
      error?: string;
    }
  /** Something the user should know that is not part of the answer (e.g. a provider failure). */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string };

/** The outcome of runLoop. */
export interface LoopResult {
  stopReason: TurnStopReason;
  /** Set when the budget ended the turn (stopReason is then end_turn), with the message shown. */
  budgetExceeded?: string;
  /** The last assistant message, when one was produced. */
  lastMessage: AssistantMessage | undefined;
  /** Set when the turn ended because of a provider failure. */
  error?: ProviderError;
}
