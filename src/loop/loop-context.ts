import type { LanguageModel } from '../providers/language-model.js';
import type { ModelMessage, UserMessage } from '../providers/message.js';
import type { SystemBlock, ThinkingLevel, ToolSpec } from '../providers/request.js';
import type { Usage } from '../providers/usage.js';
import type { Tool } from '../tools/tool.js';
import type { CompactionResult } from './compact-context.js';
import type { CompactionTracker } from './compaction-tracker.js';
import type { Conversation } from './conversation.js';
import type { ToolDispatchContext } from './dispatch-tool-calls.js';
import type { LoopEvent } from './loop-event.js';
import type { CostTracker } from './track-cost.js';

/** How a committed message is stored. */
export interface CommitMeta {
  status: 'complete' | 'interrupted';
  usage?: Usage;
  costUsd?: number;
  /** The `provider/model` that gave an assistant message. */
  model?: string;
  /** Extra data kept with the message (e.g. a compaction marker). */
  meta?: Record<string, unknown>;
}

/**
 * The narrow port through which the loop reaches its session: everything else the loop
 * works with is its own (the conversation, the cost, tool dispatch).
 */
export interface TurnPort {
  /** Stores one message (one transaction) and appends it to the conversation; rejects when the store fails. */
  commit(message: ModelMessage, meta: CommitMeta): Promise<void>;
  /** Stores a compaction's summary with its marker and replaces the conversation with the compacted one. */
  compacted(result: CompactionResult, priced: { usage?: Usage; costUsd?: number }): Promise<void>;
  /** One event for every client attached to the session. */
  emit(event: LoopEvent): void;
  /** Takes the messages waiting in a queue (steering: before the next request; followUp: when the model would stop). */
  take(queue: 'steering' | 'followUp'): UserMessage[];
  /**
   * The settings for the next model request of the running turn: `current` while the
   * session's configuration is unchanged, rebuilt from the new one after a reload.
   */
  settingsForNextRequest(current: TurnSettings): Promise<TurnSettings>;
}

/** What a session gives its loop once: they live as long as the session. */
export interface LoopParts {
  port: TurnPort;
  conversation: Conversation;
  cost: CostTracker;
  compaction: CompactionTracker;
  /**
   * The session's tool dispatch as it is now (registry, permissions, hooks, file state);
   * the loop calls it directly. A reloaded configuration brings a new one between requests.
   */
  tools(): Omit<ToolDispatchContext, 'refusal'>;
}

/** The model a request goes to, with what the loop needs to know about it. */
export interface TurnModel {
  /** `provider/model`, for events and the store. */
  ref: string;
  model: LanguageModel;
  contextWindow: number;
  /** The model's output limit: requested as max tokens, and reserved when compacting. */
  maxOutputTokens: number;
  /** USD for one response's usage. */
  price(usage: Usage): number;
}

/** What one turn runs with: the session's agent, model and limits as they are when it starts. */
export interface TurnSettings {
  model: TurnModel;
  /** Takes a request over when `model` stays unavailable (config `fallbackModel`). */
  fallback?: TurnModel;
  system: SystemBlock[];
  tools: ToolSpec[];
  /** Why the turn's agent may not use a tool, if it may not. */
  refusal(tool: Tool): string | undefined;
  /** Model requests allowed in one turn (ACP `max_turn_requests` beyond it). */
  maxTurns: number;
  temperature?: number;
  /** Reasoning effort for models that think (config `thinking`). */
  thinking?: ThinkingLevel;
  /** The session's spending limit in USD; none when undefined. */
  budgetUsd?: number;
  /** Characters of older tool results kept in a request (the store keeps all). */
  toolResultBudget: number;
  /** Fires on session/cancel or session/abort: the whole turn stops. */
  signal: AbortSignal;
  /** A signal for one model request: it fires with the turn's, or alone when a steer interrupts the stream. */
  requestSignal(): AbortSignal;
}

/** Everything the loop's steps see: the session's parts and the turn's settings. */
export interface LoopContext extends LoopParts {
  turn: TurnSettings;
}
