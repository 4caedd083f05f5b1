import { describe, expect, it } from 'vitest';
import { createOpenAIChatStreamParser } from '../../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const context = { provider: 'replay', model: 'test-model' };

describe('openai-chat stream parser', () => {
  it('ends with a server error naming the field when a chunk does not fit the format, keeping what came before', () => {
    const parser = createOpenAIChatStreamParser(context);
    const events = parser.push(
      'data: {"id":"r1","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n' +
        'data: {"id":"r1","choices":[{"index":0,"delta":{"tool_calls":{"index":0}}}]}\n\n',
    );
    expect(toComparableEvents(events)).toEqual([
      { type: 'text-delta', text: 'Hel' },
      {
        type: 'error',
        error: {
          kind: 'server',
          message:
            'replay (openai-chat): the stream sent an event that does not fit the openai-chat format at choices[0].delta.tool_calls (Invalid input: expected array, received object): {"id":"r1","choices":[{"index":0,"delta":{"tool_calls":{"index":0}}}]}',
          midStream: true,
        },
      },
    ]);
    expect(parser.finished).toBe(true);
    expect(parser.end()).toEqual([]);
  });

  it('ends with a server error when data is not JSON, and skips JSON that is no object', () => {
    const parser = createOpenAIChatStreamParser(context);
    expect(parser.push('data: 42\n\ndata: "x"\n\n')).toEqual([]);
    expect(toComparableEvents(parser.push('data: {"id":\n\n'))).toEqual([
      { type: 'error', error: { kind: 'server', message: 'replay (openai-chat): the stream sent data that is not JSON: {"id":', midStream: false } },
    ]);
  });
});
