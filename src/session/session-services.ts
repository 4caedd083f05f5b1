import type { ToolCallRequest } from '../loop/loop-context.js';
import type { LanguageModel } from '../providers/language-model.js';
import type { AssistantMessage, ToolMessage } from '../providers/message.js';
import type { SystemBlock, ToolSpec } from '../providers/request.js';
import type { Usage } from '../providers/usage.js';
import type { SessionRecord } from '../store/store.js';
import type { Session } from './session.js';

/** A model ready for a turn, with what the loop needs to know about it. */
export interface ResolvedModel {
  /** `provider/model`. */
  ref: string;
  model: LanguageModel;
  contextWindow: number;
  /** Output cap to request; the vendor default when undefined. */
  maxTokens?: number;
  /** USD for one response's usage. */
  price(usage: Usage): number;
}

/** What the SessionManager provides to every session. */
export interface SessionServices {
  /** The model for a session (its own choice, else the configured default); throws a clear error when none is configured. */
  resolveModel(ref: string | null): ResolvedModel;
  buildSystemPrompt(record: SessionRecord): SystemBlock[];
  toolSpecs(record: SessionRecord): ToolSpec[];
  runTools(session: Session, calls: ToolCallRequest[], message: AssistantMessage, signal: AbortSignal): Promise<ToolMessage>;
  maxTurns: number;
  log(line: string): void;
}
