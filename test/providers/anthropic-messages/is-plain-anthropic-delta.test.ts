import { describe, expect, it } from 'vitest';
import { anthropicStreamSchemas } from '../../../src/providers/anthropic-messages/anthropic-messages-stream-schema.js';
import { isPlainAnthropicDelta } from '../../../src/providers/anthropic-messages/is-plain-anthropic-delta.js';

describe('isPlainAnthropicDelta', () => {
  it('passes only deltas the schema accepts as they are, and sends every other event through the schema', () => {
    const plain = [
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'EqQB' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: 'so' } },
    ];
    for (const json of plain) {
      expect(isPlainAnthropicDelta(json), JSON.stringify(json)).toBe(true);
      expect(anthropicStreamSchemas().event.safeParse(json).success).toBe(true);
    }
    const notPlain = [
      { type: 'content_block_delta', index: '0', delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 5 } },
      { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: {} } },
      { type: 'content_block_delta', index: 0, delta: null },
      { type: 'content_block_delta', index: 0, delta: { type: 'toString', text: 'x' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ];
    for (const json of notPlain) expect(isPlainAnthropicDelta(json), JSON.stringify(json)).toBe(false);
  });
});
