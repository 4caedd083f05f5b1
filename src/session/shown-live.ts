import type { ToolCallContent, ToolCallLocation, ToolKind } from '../../protocol/index.js';
import type { SessionEvent } from './session-event.js';

/** What live clients were shown of one tool call, stored with its result for `session/load`. */
export interface ShownToolCall {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
  /** Set once the call finished. */
  status?: 'completed' | 'failed';
  content?: ToolCallContent[];
  rawOutput?: unknown;
}

/** The key of a tool message's `meta` that holds its ShownToolCalls, by tool call id. */
export const SHOWN_TOOL_CALLS = 'shownToolCalls';

/**
 * Keeps what the live stream showed of the message in flight, so the store keeps it too
 * and a replay shows exactly that: the message id the chunks carried, and each tool
 * call's title, kind, locations and final result as clients saw them (a tool that is gone
 * by the time the session is loaded, or a diff the result text does not hold, still shows).
 */
export class ShownLive {
  private messageId: string | undefined;
  private readonly calls = new Map<string, ShownToolCall>();

  observe(event: SessionEvent): void {
    switch (event.type) {
      case 'text_delta':
      case 'thinking_delta':
        // The latest response's id: a response that was never stored leaves none behind.
        this.messageId = event.messageId;
        break;
      case 'tool_call':
        this.calls.set(event.toolCallId, { title: event.title, kind: event.kind, locations: event.locations });
        break;
      case 'tool_call_update': {
        const shown = this.calls.get(event.toolCallId);
        if (!shown || event.status === 'in_progress') break;
        shown.status = event.status;
        if (event.content) shown.content = event.content;
        if (event.rawOutput !== undefined) shown.rawOutput = event.rawOutput;
        break;
      }
      default:
        break;
    }
  }

  /** The id the streamed chunks of the assistant message being stored carried. */
  takeMessageId(): string | undefined {
    const id = this.messageId;
    this.messageId = undefined;
    return id;
  }

  /** What was shown of these calls (the results of one tool message); undefined when nothing was. */
  takeToolCalls(ids: string[]): Record<string, ShownToolCall> | undefined {
    const out: Record<string, ShownToolCall> = {};
    for (const id of ids) {
      const shown = this.calls.get(id);
      if (!shown) continue;
      out[id] = shown;
      this.calls.delete(id);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
}
