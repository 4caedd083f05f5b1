import { ProviderError } from '../../src/providers/provider-error.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';

/**
 * Merge adjacent deltas of the same kind (text with text, thinking with thinking,
 * argument pieces of the same call), because how a stream is chunked on the wire may
 * legitimately change how finely a parser splits them; everything else must match exactly.
 */
export function mergeDeltas(events: readonly StreamEvent[]): StreamEvent[] {
  const merged: StreamEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (last?.type === 'text-delta' && event.type === 'text-delta') {
      merged[merged.length - 1] = { type: 'text-delta', text: last.text + event.text };
    } else if (last?.type === 'thinking-delta' && event.type === 'thinking-delta') {
      merged[merged.length - 1] = { type: 'thinking-delta', text: last.text + event.text };
    } else if (last?.type === 'tool-call-delta' && event.type === 'tool-call-delta' && last.id === event.id) {
      merged[merged.length - 1] = { type: 'tool-call-delta', id: last.id, argsDelta: last.argsDelta + event.argsDelta };
    } else {
      merged.push(event);
    }
  }
  return merged;
}

/** The fields of a ProviderError a fixture pins down (provider and model names are test setup). */
export interface ComparableError {
  kind: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
  midStream: boolean;
}

/** A ProviderError as a plain object, undefined fields dropped, for `toEqual` against JSON. */
export function toComparableError(error: ProviderError): ComparableError {
  const plain: ComparableError = { kind: error.kind, message: error.message, midStream: error.midStream };
  if (error.status !== undefined) plain.status = error.status;
  if (error.retryAfterMs !== undefined) plain.retryAfterMs = error.retryAfterMs;
  return plain;
}

/**
 * Deltas merged and every ProviderError (in `error`, `retry` and `fallback` events)
 * turned into a ComparableError, so a whole stream compares with one `toEqual`
 * against an `.expected.json`.
 */
export function toComparableEvents(events: readonly unknown[]): unknown[] {
  return mergeDeltas(events as StreamEvent[]).map((event) => {
    const withError = event as { error?: unknown };
    if (withError.error instanceof ProviderError) return { ...event, error: toComparableError(withError.error) };
    return event;
  });
}
