import type { SessionEvent } from './session-event.js';

type InFlightEvent = Extract<SessionEvent, { type: 'text_delta' | 'thinking_delta' | 'tool_call_update' | 'plan' }>;

/**
 * What the session's live stream has shown since its last stored message: the reply
 * streaming now, and the progress of tool calls whose results are not stored yet. A
 * client that loads a running session gets the stored history, then these, then the
 * live rest: together exactly what a client attached from the start has seen, with no
 * gap and nothing twice. Kept settled, as a replay is: chunks of one message joined, a
 * tool call's latest update only. A tool call's announcement is not kept: the call is
 * part of the stored assistant message by then and replays from there.
 */
export class InFlightEvents {
  private events: InFlightEvent[] = [];

  observe(event: SessionEvent): void {
    switch (event.type) {
      case 'message_committed':
      case 'turn_end':
        this.events = [];
        return;
      case 'text_delta':
      case 'thinking_delta': {
        // Every delta of a streaming reply passes here: extend the kept copy in place.
        const last = this.events.at(-1);
        if (last?.type === event.type && last.messageId === event.messageId) last.text += event.text;
        else this.events.push({ ...event });
        return;
      }
      case 'tool_call_update': {
        const index = this.events.findIndex((e) => e.type === 'tool_call_update' && e.toolCallId === event.toolCallId);
        if (index < 0) {
          this.events.push({ ...event });
          return;
        }
        const earlier = this.events[index] as Extract<InFlightEvent, { type: 'tool_call_update' }>;
        // ACP: an update's fields replace the earlier ones; fields it leaves out stay.
        this.events[index] = { ...earlier, ...event };
        return;
      }
      case 'plan': {
        this.events = this.events.filter((e) => e.type !== 'plan');
        this.events.push(event);
        return;
      }
      default:
        return;
    }
  }

  /** The events to send a client that joins now, after the stored history. */
  snapshot(): readonly SessionEvent[] {
    // Copies: the kept ones go on growing with the reply.
    return this.events.map((event) => ({ ...event }));
  }
}
