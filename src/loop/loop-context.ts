import type { LanguageModel } from '../providers/language-model.js';
import type { AssistantMessage, ModelMessage, ToolMessage, UserMessage } from '../providers/message.js';
import type { SystemBlock, ThinkingLevel, ToolSpec } from '../providers/request.js';
import type { Usage } from '../providers/usage.js';
import type { CompactionResult } from './compact-context.js';
import type { CompactionTracker } from './compaction-tracker.js';
import type { LoopEvent } from './loop-event.js';
import type { CostTracker } from './track-cost.js';

/** A tool call the loop asks its host to run. */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: Record<string, unknown>;
  argsError?: string;
}

/** How a committed message is stored. */
export interface CommitMeta {
  status: 'complete' | 'interrupted';
  usage?: Usage;
  costUsd?: number;
  /** Extra data kept with the message (e.g. a compaction marker). */
  meta?: Record<string, unknown>;
}

/** Everything runLoop needs from the session that hosts it. */
export interface LoopContext {
  model: LanguageModel;
  /** `provider/model`, for events and the store. */
  modelRef: string;
  system: SystemBlock[];
  tools: ToolSpec[];
  /** The conversation so far; the loop appends to it as messages are committed. */
  history: ModelMessage[];
  /** Model requests allowed in one turn (ACP `max_turn_requests` beyond it). */
  maxTurns: number;
  maxTokens?: number;
  temperature?: number;
  /** Reasoning effort for models that think (config `thinking`). */
  thinking?: ThinkingLevel;
  /** The session's spending limit in USD; none when undefined. */
  budgetUsd?: number;
  /** Context window of the model, and the output it may use. */
  contextWindow: number;
  maxOutputTokens: number;
  /** Characters of older tool results kept in a request (the store keeps all). */
  toolResultBudget: number;
  /** Fires on session/cancel or session/abort: the whole turn stops. */
  signal: AbortSignal;
  /** A signal for one model request: it fires with the turn's, or alone when a steer interrupts the stream. */
  requestSignal(): AbortSignal;
  emit(event: LoopEvent): void;
  /** Persists one message (one transaction) before the loop goes on. */
  commit(message: ModelMessage, meta: CommitMeta): void;
  /** Prices one response's usage; returns USD. */
  price(usage: Usage): number;
  cost: CostTracker;
  /**
   * The last response's usage and the history length it covered, kept by the session
   * across turns: the context estimate starts from it.
   */
  usageMark: { current: { usage: Usage; historyLength: number } | undefined };
  compaction: {
    tracker: CompactionTracker;
    /** Replaces the in-memory history with a compacted one and records the marker in the store. */
    apply(result: CompactionResult): void;
  };
  /** Runs the tool calls of one assistant message and returns their results in call order. */
  runTools(calls: ToolCallRequest[], message: AssistantMessage, signal: AbortSignal): Promise<ToolMessage>;
  /** Steering messages to deliver before the next model request. */
  takeSteering(): UserMessage[];
  /** Follow-ups, taken only when the model would otherwise stop. */
  takeFollowUp(): UserMessage[];
}
