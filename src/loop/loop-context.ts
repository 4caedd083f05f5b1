import type { LanguageModel } from '../providers/language-model.js';
import type { AssistantMessage, ModelMessage, ToolMessage, UserMessage } from '../providers/message.js';
import type { SystemBlock, ToolSpec } from '../providers/request.js';
import type { Usage } from '../providers/usage.js';
import type { LoopEvent } from './loop-event.js';

/** A tool call the loop asks its host to run. */
export interface ToolCallRequest {
  id: string;
  name: string;
  args: Record<string, unknown>;
  argsError?: string;
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
  maxTurns: number;
  maxTokens?: number;
  temperature?: number;
  /** Fires on session/cancel or session/abort. */
  signal: AbortSignal;
  emit(event: LoopEvent): void;
  /** Persists one message (one transaction) before the loop goes on. */
  commit(message: ModelMessage, meta: { status: 'complete' | 'interrupted'; usage?: Usage; costUsd?: number }): void;
  /** Prices one response's usage; returns USD. */
  price(usage: Usage): number;
  /** Context window of the model, for usage updates. */
  contextWindow: number;
  /** Runs the tool calls of one assistant message and returns their results in call order. */
  runTools(calls: ToolCallRequest[], message: AssistantMessage, signal: AbortSignal): Promise<ToolMessage>;
  /** Running cost of the session so far, USD. */
  sessionCostUsd(): number;
  /** Steering messages queued since the last provider call; delivered before the next one. */
  takeSteering(): UserMessage[];
  /** The next follow-up, taken only when the model would otherwise stop. */
  takeFollowUp(): UserMessage | undefined;
}
