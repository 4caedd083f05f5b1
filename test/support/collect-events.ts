import type { AssistantContentPart, AssistantMessage, ThinkingPart } from '../../src/providers/message.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';

/** Drain a stream into an array. */
export async function collectEvents(iterable: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/**
 * Fold a stream into the assistant message it describes: adjacent text and thinking
 * deltas become one part each (a `text-end` closes the text part, a `server-tool` block
 * is a part of its own), a signature closes the current thinking part, and a
 * call becomes a `tool_call` part when its `tool-call-end` arrives (a call that never
 * ended, e.g. cut off by an error, is not part of the message).
 */
export function accumulateMessage(events: readonly StreamEvent[]): AssistantMessage {
  const content: AssistantContentPart[] = [];
  let open: 'text' | 'thinking' | undefined;
  for (const event of events) {
    const last = content.at(-1);
    switch (event.type) {
      case 'text-delta':
        if (open === 'text' && last?.type === 'text') last.text += event.text;
        else content.push({ type: 'text', text: event.text });
        open = 'text';
        break;
      case 'text-end':
        open = undefined;
        break;
      case 'server-tool':
        content.push({ type: 'server_tool', providerProtocol: event.providerProtocol, block: event.block });
        open = undefined;
        break;
      case 'thinking-delta':
        if (open === 'thinking' && last?.type === 'thinking') last.text += event.text;
        else content.push({ type: 'thinking', text: event.text });
        open = 'thinking';
        break;
      case 'thinking-signature': {
        const part: ThinkingPart =
          open === 'thinking' && last?.type === 'thinking' ? last : pushThinking(content);
        if (event.signature !== undefined) part.signature = event.signature;
        if (event.redacted !== undefined) part.redacted = event.redacted;
        if (event.providerData !== undefined) part.providerData = event.providerData;
        open = undefined;
        break;
      }
      case 'tool-call-start':
        open = undefined;
        break;
      case 'tool-call-end':
        content.push({
          type: 'tool_call',
          id: event.id,
          name: event.name,
          args: event.args,
          ...(event.argsError !== undefined ? { argsError: event.argsError } : {}),
          ...(event.providerData !== undefined ? { providerData: event.providerData } : {}),
        });
        open = undefined;
        break;
      default:
        // tool-call-delta is folded at tool-call-end; usage, stop, error and the
        // resilience notices (retry, fallback, breaker) carry no message content.
        break;
    }
  }
  return { role: 'assistant', content };
}

function pushThinking(content: AssistantContentPart[]): ThinkingPart {
  const part: ThinkingPart = { type: 'thinking', text: '' };
  content.push(part);
  return part;
}
