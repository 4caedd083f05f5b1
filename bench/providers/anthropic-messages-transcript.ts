import { aroundTheMiddle, benchToolCall, textPieces, type BenchTranscript } from './bench-transcript.js';

/**
 * A Messages stream as api.anthropic.com sends it
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming): named events
 * (`event:` then `data:`), message_start, a ping, a text block, a tool_use block whose
 * input arrives as input_json_delta pieces, a second text block, message_delta with the
 * stop reason and cumulative usage, message_stop.
 */
export function anthropicMessagesTranscript(events = 5000): BenchTranscript {
  const tool = benchToolCall(24);
  const callId = 'toolu_01BenchReadFile0000000001';
  // message_start, ping, 3 × (block start + stop), message_delta, message_stop
  const fixed = 2 + 6 + 2;
  const pieces = textPieces(events - fixed - tool.deltas.length, 2);
  const [before, after] = aroundTheMiddle(pieces);

  const frames = [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_01BenchParseThroughput000001',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1250, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024, output_tokens: 1, service_tier: 'standard' },
      },
    }),
    frame('ping', { type: 'ping' }),
    ...textBlock(0, before),
    frame('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: callId, name: tool.name, input: {} } }),
    ...tool.deltas.map((partial) =>
      frame('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: partial } }),
    ),
    frame('content_block_stop', { type: 'content_block_stop', index: 1 }),
    ...textBlock(2, after),
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 1250, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024, output_tokens: pieces.length + tool.deltas.length },
    }),
    frame('message_stop', { type: 'message_stop' }),
  ];
  return {
    protocol: 'anthropic-messages',
    bytes: new TextEncoder().encode(frames.join('')),
    wireEvents: frames.length,
    text: pieces.join(''),
    toolCall: { id: callId, name: tool.name, arguments: tool.arguments },
  };
}

function textBlock(index: number, pieces: string[]): string[] {
  return [
    frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) => frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } })),
    frame('content_block_stop', { type: 'content_block_stop', index }),
  ];
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
