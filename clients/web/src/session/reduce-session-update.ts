import type { SessionUpdate, ToolCall, ToolCallUpdate } from '../../../../protocol/index.js';
import { contentText } from '../format/content-text.js';
import type { ToolCallView, TranscriptItem, TranscriptState } from './transcript-state.js';

type ChunkKind = 'user' | 'agent' | 'thought';

/**
 * The transcript after one `session/update`: a pure function, the same for the history
 * `session/load` replays and for the live stream. A chunk extends the last item when that is
 * a message of the same kind and message id (a tool call, another kind of chunk or another
 * message in between starts a new one); a tool call update merges into its call; a plan replaces the plan. Kinds the page does
 * not show (commands, compaction) leave the state as it was.
 */
export function reduceSessionUpdate(state: TranscriptState, update: SessionUpdate): TranscriptState {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
      return appendChunk(state, 'user', update.messageId ?? null, contentText(update.content));
    case 'agent_message_chunk':
      return appendChunk(state, 'agent', update.messageId ?? null, contentText(update.content));
    case 'agent_thought_chunk':
      return appendChunk(state, 'thought', update.messageId ?? null, contentText(update.content));
    case 'tool_call':
      return upsertToolCall(state, update);
    case 'tool_call_update':
      return upsertToolCall(state, update);
    case 'plan':
      return { ...state, plan: update.entries };
    case 'current_mode_update':
      return { ...state, currentModeId: update.currentModeId };
    case 'config_option_update':
      return { ...state, configOptions: update.configOptions };
    case 'session_info_update':
      return update.title === undefined ? state : { ...state, title: update.title };
    case 'usage_update':
      return { ...state, usage: { used: update.used, size: update.size }, costUsd: update.cost?.amount ?? state.costUsd };
    case 'notice':
      return push(state, (id) => ({ kind: 'notice', id, severity: update.severity, title: update.title, description: update.description ?? null }));
    default:
      return state;
  }
}

function push(state: TranscriptState, make: (id: string) => TranscriptItem): TranscriptState {
  return { ...state, items: [...state.items, make(`i${state.nextId}`)], nextId: state.nextId + 1 };
}

function appendChunk(state: TranscriptState, kind: ChunkKind, messageId: string | null, text: string): TranscriptState {
  const last = state.items.at(-1);
  if (last !== undefined && last.kind === kind && last.messageId === messageId) {
    const items = state.items.slice();
    items[items.length - 1] = { ...last, text: last.text + text };
    return { ...state, items };
  }
  return push(state, (id) => ({ kind, id, text, messageId }));
}

function upsertToolCall(state: TranscriptState, update: ToolCall | ToolCallUpdate): TranscriptState {
  const index = state.items.findLastIndex((item) => item.kind === 'tool' && item.call.toolCallId === update.toolCallId);
  if (index < 0) return push(state, (id) => ({ kind: 'tool', id, call: mergeToolCall(undefined, update) }));
  const item = state.items[index] as Extract<TranscriptItem, { kind: 'tool' }>;
  const items = state.items.slice();
  items[index] = { ...item, call: mergeToolCall(item.call, update) };
  return { ...state, items };
}

/** A tool call after an update: each field the update carries replaces the one before (ACP's tool_call_update rule). */
function mergeToolCall(before: ToolCallView | undefined, update: ToolCall | ToolCallUpdate): ToolCallView {
  return {
    toolCallId: update.toolCallId,
    title: update.title ?? before?.title ?? update.toolCallId,
    kind: update.kind ?? before?.kind ?? null,
    status: update.status ?? before?.status ?? null,
    content: update.content ?? before?.content ?? [],
    locations: update.locations ?? before?.locations ?? [],
    rawInput: update.rawInput !== undefined ? update.rawInput : before?.rawInput,
    rawOutput: update.rawOutput !== undefined ? update.rawOutput : before?.rawOutput,
  };
}
