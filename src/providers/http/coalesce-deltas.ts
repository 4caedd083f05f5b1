import type { StreamEvent } from '../stream-event.js';

/**
 * The events parsed from one network read with adjacent deltas of the same kind joined:
 * text with text, reasoning with reasoning, argument pieces of the same call. Everything
 * that arrived together goes on together, in order, as one event instead of dozens, so
 * the loop and every client see the same text at the same moment for a fraction of the
 * work; any other event between two deltas keeps them apart. Nothing is held back for a
 * later read: what a read brought is passed on when it has been parsed.
 */
export function coalesceDeltas(events: StreamEvent[]): StreamEvent[] {
  if (events.length < 2) return events;
  const out: StreamEvent[] = [];
  let last: StreamEvent | undefined;
  for (const event of events) {
    if (last?.type === 'text-delta' && event.type === 'text-delta') {
      last = { type: 'text-delta', text: last.text + event.text };
      out[out.length - 1] = last;
    } else if (last?.type === 'thinking-delta' && event.type === 'thinking-delta') {
      last = { type: 'thinking-delta', text: last.text + event.text };
      out[out.length - 1] = last;
    } else if (last?.type === 'tool-call-delta' && event.type === 'tool-call-delta' && last.id === event.id) {
      last = { type: 'tool-call-delta', id: last.id, argsDelta: last.argsDelta + event.argsDelta };
      out[out.length - 1] = last;
    } else {
      out.push(event);
      last = event;
    }
  }
  return out;
}
