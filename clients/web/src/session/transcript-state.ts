import type { PlanEntry, SessionConfigOption, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '../../../../protocol/index.js';

/** A tool call as the transcript shows it: the latest of its title, status, output and diffs. */
export interface ToolCallView {
  toolCallId: string;
  title: string;
  kind: ToolKind | null;
  status: ToolCallStatus | null;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput: unknown;
  rawOutput: unknown;
}

/** One block of a session's transcript, in the order it happened. */
export type TranscriptItem =
  | { kind: 'user' | 'agent' | 'thought'; id: string; text: string; messageId: string | null }
  | { kind: 'tool'; id: string; call: ToolCallView }
  | { kind: 'notice'; id: string; severity: string; title: string; description: string | null };

/** Everything a session's `session/update` stream has said, reduced (see reduceSessionUpdate). */
export interface TranscriptState {
  items: readonly TranscriptItem[];
  /** The agent's plan as last sent (each plan replaces the previous one); null until there is one. */
  plan: readonly PlanEntry[] | null;
  title: string | null;
  /** Mode switched by a `current_mode_update`; null: as `session/load` said. */
  currentModeId: string | null;
  /** Options as a `config_option_update` last sent them; null: as `session/load` said. */
  configOptions: readonly SessionConfigOption[] | null;
  /** Context tokens in use and the window's size, from `usage_update`. */
  usage: { used: number; size: number } | null;
  /** Cumulative cost in USD, from `usage_update`. */
  costUsd: number | null;
  /** Ids handed out so far, so every new item's id is unique and stable. */
  nextId: number;
}

export const EMPTY_TRANSCRIPT: TranscriptState = {
  items: [],
  plan: null,
  title: null,
  currentModeId: null,
  configOptions: null,
  usage: null,
  costUsd: null,
  nextId: 0,
};
