import type { ContentBlock, ToolCallContent } from '../../protocol/index.js';
import type { ImagePart, TextPart, ToolResultPart } from '../providers/message.js';
import type { MessageRecord, TurnRecord } from '../store/store.js';
import type { ToolCallDescription } from '../tools/describe-tool-call.js';
import { TEXT_PART_SEPARATOR } from '../loop/accumulate-response.js';
import { isCompactionRecord } from './compaction-marker.js';
import type { SessionEvent } from './session-event.js';
import { SHOWN_TOOL_CALLS, type ShownToolCall } from './shown-live.js';

/** One event of a stored conversation, with the turn it belongs to. */
export interface ReplayedEvent {
  event: SessionEvent;
  turnId: string;
  /** The message was cut short, or its turn never finished (the daemon died mid-turn). */
  interrupted: boolean;
}

/** Title, kind and locations of a call, for messages stored before they were kept with it. */
export type DescribeStoredCall = (name: string, args: Record<string, unknown>) => ToolCallDescription;

/**
 * The session events a stored conversation produced, rebuilt from the store so that
 * `session/load` maps them through the same function as live events: for each message
 * what its live stream left on screen (one chunk per part instead of many small ones, a
 * tool call's final status instead of its progress). Live-only events (usage, retries,
 * turn boundaries, queue changes) are not part of the conversation and are not rebuilt.
 * The session's title, when it has one, follows its first prompt, as it did live.
 */
export function replayEvents(messages: MessageRecord[], turns: TurnRecord[], describe: DescribeStoredCall, title?: string | null): ReplayedEvent[] {
  const out: ReplayedEvent[] = [];
  visitReplayEvents(messages, turns, describe, title, (event, turnId, interrupted) => void out.push({ event, turnId, interrupted }));
  return out;
}

/**
 * replayEvents one event at a time, in order, without collecting them: a session/load
 * of thousands of messages sends each as it is made, so none is kept longer than that.
 */
export function visitReplayEvents(
  messages: MessageRecord[],
  turns: TurnRecord[],
  describe: DescribeStoredCall,
  title: string | null | undefined,
  visit: (event: SessionEvent, turnId: string, interrupted: boolean) => void,
): void {
  const interruptedTurns = new Set(turns.filter((t) => t.status === 'interrupted').map((t) => t.id));
  const shown = shownToolCalls(messages);
  let titled = false;
  for (const message of messages) {
    // Compaction summaries are the daemon's bookkeeping, not part of the conversation shown.
    if (isCompactionRecord(message)) continue;
    const { turnId } = message;
    const interrupted = message.status === 'interrupted' || interruptedTurns.has(turnId);
    const push = (event: SessionEvent): void => visit(event, turnId, interrupted);
    if (message.role === 'user') {
      push({ type: 'user_message', messageId: message.id, content: userBlocks(message) });
      // As live: the title, taken from the first prompt, is told right after it.
      if (title && !titled) push({ type: 'session_info', title });
      titled = true;
      continue;
    }
    if (message.role === 'assistant') {
      let textShown = false;
      for (const part of message.content as Array<{ type: string; [key: string]: unknown }>) {
        if (part.type === 'text' && typeof part.text === 'string') {
          // As live: a later text part of the message comes after a separator (see TEXT_PART_SEPARATOR).
          push({ type: 'text_delta', messageId: message.id, text: textShown ? TEXT_PART_SEPARATOR + part.text : part.text });
          textShown = true;
        }
        if (part.type === 'thinking' && typeof part.text === 'string' && part.text !== '') {
          push({ type: 'thinking_delta', messageId: message.id, text: part.text });
        }
        if (part.type === 'tool_call') {
          const id = String(part.id);
          const name = String(part.name);
          const args = isObject(part.args) ? part.args : {};
          const seen = shown.get(id);
          const described = seen ? { title: seen.title, kind: seen.kind, locations: seen.locations } : describe(name, args);
          push({ type: 'tool_call', toolCallId: id, name, ...described, rawInput: args });
        }
      }
      continue;
    }
    for (const result of message.content as ToolResultPart[]) {
      const seen = shown.get(result.toolCallId);
      const plan = (seen?.rawOutput as { plan?: unknown } | null | undefined)?.plan;
      if (Array.isArray(plan)) push({ type: 'plan', entries: plan });
      push({
        type: 'tool_call_update',
        toolCallId: result.toolCallId,
        status: seen?.status ?? (result.isError ? 'failed' : 'completed'),
        content: seen?.content ?? result.content.map(toToolCallContent),
        ...(seen && 'rawOutput' in seen ? { rawOutput: seen.rawOutput } : {}),
      });
    }
  }
}

function shownToolCalls(messages: MessageRecord[]): Map<string, ShownToolCall> {
  const shown = new Map<string, ShownToolCall>();
  for (const message of messages) {
    const calls = message.role === 'tool' ? message.meta?.[SHOWN_TOOL_CALLS] : undefined;
    if (isObject(calls)) for (const [id, call] of Object.entries(calls)) shown.set(id, call as ShownToolCall);
  }
  return shown;
}

/** The ACP blocks the user sent (kept with the message), or its parts for older records. */
function userBlocks(message: MessageRecord): ContentBlock[] {
  const acp = message.meta?.acp;
  if (Array.isArray(acp)) return acp as ContentBlock[];
  return (message.content as Array<TextPart | ImagePart>).map(toBlock);
}

function toToolCallContent(part: TextPart | ImagePart): ToolCallContent {
  return { type: 'content', content: toBlock(part) };
}

function toBlock(part: TextPart | ImagePart): ContentBlock {
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mimeType };
  return { type: 'text', text: typeof part.text === 'string' ? part.text : JSON.stringify(part) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
