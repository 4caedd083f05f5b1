import type { AnthropicStreamEvent } from './anthropic-messages-stream-schema.js';

/** The field each delta type carries its piece in. */
const PIECE_FIELD: Readonly<Record<string, string>> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  signature_delta: 'signature',
  input_json_delta: 'partial_json',
};

/**
 * Whether an event is the common `content_block_delta` — a numeric index and a delta of
 * a type the parser reads with its piece a string — so the schema would accept it as it
 * is and the parser may read it without the schema's walk (the thousands of deltas of
 * one answer). Anything else returns false and goes through the schema, which checks it
 * in full.
 */
export function isPlainAnthropicDelta(json: Record<string, unknown>): json is Record<string, unknown> & AnthropicStreamEvent {
  if (json.type !== 'content_block_delta' || typeof json.index !== 'number') return false;
  const delta = json.delta;
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) return false;
  const { type } = delta as { type?: unknown };
  const field = typeof type === 'string' && Object.hasOwn(PIECE_FIELD, type) ? PIECE_FIELD[type] : undefined;
  return field !== undefined && typeof (delta as Record<string, unknown>)[field] === 'string';
}
