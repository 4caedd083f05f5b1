import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesStream } from '../../../src/providers/anthropic-messages/parse-anthropic-messages-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const context = { provider: 'anthropic', model: 'claude-sonnet-4-5' };

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

const messageStart = sse('message_start', { message: { usage: { input_tokens: 10, output_tokens: 1 } } });

describe('parseAnthropicMessagesStream', () => {
  it('parses a transcript fed as decoded text, without HTTP', () => {
    const fixture = loadFixture('anthropic-messages', 'thinking-with-signature');
    const parser = parseAnthropicMessagesStream(context);
    const decoder = new TextDecoder();
    const events: StreamEvent[] = [];
    // Cut every 7 bytes, which lands inside multi-byte characters such as ×.
    for (let i = 0; i < fixture.bytes.length; i += 7) events.push(...parser.push(decoder.decode(fixture.bytes.subarray(i, i + 7), { stream: true })));
    events.push(...parser.push(decoder.decode()), ...parser.end());
    expect(toComparableEvents(events)).toEqual(fixture.expected.events);
  });

  it('produces nothing after the stop, even when more events follow', () => {
    const parser = parseAnthropicMessagesStream(context);
    const events = parser.push(messageStart + sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }) + sse('message_stop', {}));
    expect(events.map((e) => e.type)).toEqual(['usage', 'stop']);
    expect(parser.finished).toBe(true);
    expect(parser.push(sse('content_block_start', { index: 0, content_block: { type: 'text', text: 'late' } }))).toEqual([]);
    expect(parser.end()).toEqual([]);
    expect(parser.fail(new ProviderError({ kind: 'network', message: 'x', provider: 'anthropic' }))).toEqual([]);
  });

  it('treats a stream cut after message_delta as complete', () => {
    const parser = parseAnthropicMessagesStream(context);
    parser.push(messageStart + sse('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 7 } }));
    expect(parser.end()).toEqual([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'stop', reason: { unified: 'max_tokens', raw: 'max_tokens' } },
    ]);
  });

  it('takes a tool input that arrives whole on content_block_start (as some proxies send it)', () => {
    const parser = parseAnthropicMessagesStream(context);
    const events = parser.push(
      messageStart +
        sse('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_x', name: 'read', input: { path: 'a.txt' } } }) +
        sse('content_block_stop', { index: 0 }),
    );
    expect(events).toEqual([
      { type: 'tool-call-start', id: 'toolu_x', name: 'read' },
      { type: 'tool-call-delta', id: 'toolu_x', argsDelta: '{"path":"a.txt"}' },
      { type: 'tool-call-end', id: 'toolu_x', name: 'read', args: { path: 'a.txt' } },
    ]);
  });

  it('reports tool input that is JSON but not an object', () => {
    const parser = parseAnthropicMessagesStream(context);
    const events = parser.push(
      messageStart +
        sse('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_y', name: 'read', input: {} } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '[1,2]' } }) +
        sse('content_block_stop', { index: 0 }),
    );
    expect(events.at(-1)).toEqual({
      type: 'tool-call-end',
      id: 'toolu_y',
      name: 'read',
      args: {},
      argsError: 'the arguments of read are JSON but not an object: [1,2]',
    });
  });

  it('skips unknown event types and delta types, and tells about an unknown block type once', () => {
    const parser = parseAnthropicMessagesStream(context);
    const events = parser.push(
      messageStart +
        sse('future_event', { value: 1 }) +
        sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'citations_delta', citation: { cited_text: 'x' } } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } }) +
        sse('content_block_stop', { index: 0 }) +
        sse('content_block_start', { index: 1, content_block: { type: 'container_upload', file_id: 'f' } }) +
        sse('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'hidden' } }) +
        sse('content_block_stop', { index: 1 }),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'ok' },
      { type: 'text-end' },
      { type: 'notice', message: 'The model sent a content block agentd does not read: container_upload. It was ignored.' },
    ]);
  });

  it('ends with a server error naming the field when an event does not fit the format', () => {
    const parser = parseAnthropicMessagesStream(context);
    parser.push(messageStart + sse('content_block_start', { index: 0, content_block: { type: 'text', text: 'Hi' } }));
    const events = parser.push(sse('content_block_delta', { index: '0', delta: { type: 'text_delta', text: 'x' } }));
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'server',
          message:
            'anthropic (anthropic-messages): the stream sent a "content_block_delta" event that does not fit the anthropic-messages format at index (Invalid input: expected number, received string): {"type":"content_block_delta","index":"0","delta":{"type":"text_delta","text":"x"}}',
          midStream: true,
        },
      },
    ]);
  });

  it('checks a delta or block only for the fields read of its type: others pass with any shape, a read one of the wrong type fails', () => {
    const lenient = parseAnthropicMessagesStream(context).push(
      messageStart +
        sse('content_block_start', { index: 0, content_block: { type: 'text', text: '', citations: null } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'x', document_index: 0 }, text: null } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok', signature: 7 } }) +
        sse('content_block_stop', { index: 0 }),
    );
    expect(lenient).toEqual([{ type: 'text-delta', text: 'ok' }, { type: 'text-end' }]);
    const wrongDelta = parseAnthropicMessagesStream(context).push(messageStart + sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 5 } }));
    expect(wrongDelta[0]?.type === 'error' && wrongDelta[0].error.message).toContain(
      'a "content_block_delta" event that does not fit the anthropic-messages format at delta.text (Invalid input: expected string, received number)',
    );
    const wrongBlock = parseAnthropicMessagesStream(context).push(messageStart + sse('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 7, input: {} } }));
    expect(wrongBlock[0]?.type === 'error' && wrongBlock[0].error.message).toContain(
      'a "content_block_start" event that does not fit the anthropic-messages format at content_block.name (Invalid input: expected string, received number)',
    );
  });

  it('ends with a server error when an event is not JSON', () => {
    const parser = parseAnthropicMessagesStream(context);
    const events = parser.push(messageStart + 'event: content_block_delta\ndata: {"type":"content_blo\n\n');
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: { kind: 'server', message: 'anthropic (anthropic-messages): the stream sent data that is not JSON: {"type":"content_blo', midStream: false },
      },
    ]);
  });

  it('flags a transport failure after content as mid-stream', () => {
    const parser = parseAnthropicMessagesStream(context);
    parser.push(messageStart + sse('content_block_start', { index: 0, content_block: { type: 'text', text: 'Hel' } }));
    const [event] = parser.fail(new ProviderError({ kind: 'timeout', message: 'stalled', provider: 'anthropic' }));
    expect(event?.type === 'error' && event.error.midStream).toBe(true);
    expect(event?.type === 'error' && event.error.kind).toBe('timeout');
  });
});
