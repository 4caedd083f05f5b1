import { ProviderError } from '../provider-error.js';
import type { StreamEvent } from '../stream-event.js';

/**
 * Most content one response may bring (text, reasoning, tool-call arguments and
 * server-tool blocks, in UTF-8 bytes) before it is cut off: far above any real answer
 * (a 128k-token output is about half a MiB), low enough that a broken or hostile server
 * streaming forever cannot fill the daemon's memory. `providers.<id>.maxResponseBytes`.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Who is answering, for the error message. */
interface LimitContext {
  provider: string;
  model: string;
}

/** One response's size limits; each check returns the error that ends the response, if any. */
export interface ResponseSizeLimit {
  /** Decoded body text as it arrives: one SSE event that never ends (no blank line) is cut at twice the limit. */
  read(text: string): ProviderError | undefined;
  /** Parsed events: those within the limit, and the error when the content went past it. */
  count(events: StreamEvent[]): { events: StreamEvent[]; error?: ProviderError };
}

/**
 * The size limits of one streamed response. The content limit counts what the loop
 * accumulates; the event limit counts characters since the last blank line (SSE's event
 * boundary), which eventsource-parser buffers whole — twice the content limit, since an
 * event may legitimately repeat the whole answer (Responses' `response.completed`).
 */
export function createResponseSizeLimit(limit: number, context: LimitContext): ResponseSizeLimit {
  let content = 0;
  let pending = 0;
  let tail = '';
  const streamed = new Set<string>();
  const error = (what: string, bytes: number): ProviderError =>
    new ProviderError({
      kind: 'response_too_large',
      provider: context.provider,
      model: context.model,
      message:
        `${context.provider}: ${what} went past ${bytes} bytes, so agentd stopped reading it (what arrived before is kept); ` +
        `if the model really answers at this length, raise providers.${context.provider}.maxResponseBytes (now ${limit}) in config.json`,
    });
  return {
    read(text) {
      const joined = tail + text;
      const boundary = Math.max(joined.lastIndexOf('\n\n'), joined.lastIndexOf('\r\r'), joined.lastIndexOf('\n\r\n'));
      pending = boundary === -1 ? pending + text.length : joined.length - boundary - 2;
      tail = joined.slice(-2);
      return pending > 2 * limit ? error('one event of the response stream (no end of event in sight)', 2 * limit) : undefined;
    },
    count(events) {
      for (let i = 0; i < events.length; i += 1) {
        content += size(events[i]!, streamed);
        if (content > limit) return { events: events.slice(0, i), error: error('the response', limit) };
      }
      return { events };
    },
  };
}

/** The bytes an event adds to the accumulated message; a call's arguments count once (streamed or whole). */
function size(event: StreamEvent, streamed: Set<string>): number {
  switch (event.type) {
    case 'text-delta':
    case 'thinking-delta':
      return Buffer.byteLength(event.text);
    case 'tool-call-delta':
      streamed.add(event.id);
      return Buffer.byteLength(event.argsDelta);
    case 'tool-call-end':
      return streamed.has(event.id) ? 0 : Buffer.byteLength(JSON.stringify(event.args));
    case 'thinking-signature':
      return Buffer.byteLength(event.signature ?? '') + Buffer.byteLength(event.redacted ?? '');
    case 'server-tool':
      return Buffer.byteLength(JSON.stringify(event.block));
    default:
      return 0;
  }
}
