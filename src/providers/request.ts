import type { ModelMessage } from './message.js';

/** A tool the model may call. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 or 7) of the arguments object. */
  inputSchema: Record<string, unknown>;
}

/** How hard the model should think; each level maps to a vendor token budget or effort. */
export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high';

/** One block of the system prompt, as config's prompt assembly builds it. */
export type { SystemBlock } from '../config/build-system-prompt.js';
import type { SystemBlock } from '../config/build-system-prompt.js';

/** Everything a provider needs for one streamed response. */
export interface ModelRequest {
  /** The vendor's model id (without the `provider/` prefix). */
  model: string;
  system: SystemBlock[];
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** Output token cap; the catalog's max output when undefined. */
  maxTokens?: number;
  temperature?: number;
  thinking?: ThinkingLevel;
  /** Token budget per thinking level, overriding the defaults. */
  thinkingBudgets?: Partial<Record<Exclude<ThinkingLevel, 'off'>, number>>;
  stopSequences?: string[];
  /** Place cache hints on the last messages too (Anthropic), so each turn reuses the previous one. */
  cacheMessages?: boolean;
}
