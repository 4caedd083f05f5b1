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

  it('checks only the fields it reads: unread ones pass whatever their shape, content parts are checked per type', () => {
    const parser = createOpenAIChatStreamParser(context);
    const events = parser.push(
      'data: {"id":"r2","choices":[{"index":0,"delta":{"role":{"name":"assistant"},"content":[{"type":"reference","reference_ids":[1],"text":{"ref":1}},' +
        '{"type":"thinking","thinking":[{"type":"reference","text":7},{"type":"text","text":"so"}]},{"type":"text","text":"Hi"}]}}]}\n\n' +
        'data: {"id":"r2","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":{"kind":"function"},"function":{"name":"f","arguments":"{}"}}]}}]}\n\n' +
        'data: {"id":"r2","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
    );
    expect(events.map((event) => event.type)).toEqual(['thinking-delta', 'text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'stop']);
    const wrong = createOpenAIChatStreamParser(context).push('data: {"id":"r3","choices":[{"index":0,"delta":{"content":[{"type":"text","text":5}]}}]}\n\n');
    expect(wrong[0]?.type === 'error' && wrong[0].error.message).toContain(
      'does not fit the openai-chat format at choices[0].delta.content[0].text (Invalid input: expected string, received number)',
    );
  });

  it('reads the bare error fields only in an `event: error` frame: elsewhere they pass whatever their shape', () => {
    const chunk = createOpenAIChatStreamParser(context).push(
      'data: {"id":"r4","type":{"kind":"chunk"},"message":{"role":"assistant"},"code":[1],"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    );
    expect(chunk.map((event) => event.type)).toEqual(['text-delta', 'stop']);
    const frame = createOpenAIChatStreamParser(context).push('event: error\ndata: {"message":"overloaded","code":503,"type":{"odd":true}}\n\n');
    expect(frame[0]?.type === 'error' && frame[0].error.message).toContain('overloaded');
  });

  it('ends with a server error when data is not JSON, and skips JSON that is no object', () => {
    const parser = createOpenAIChatStreamParser(context);
    expect(parser.push('data: 42\n\ndata: "x"\n\n')).toEqual([]);
    expect(toComparableEvents(parser.push('data: {"id":\n\n'))).toEqual([
      { type: 'error', error: { kind: 'server', message: 'replay (openai-chat): the stream sent data that is not JSON: {"id":', midStream: false } },
    ]);
  });
});

describe('openai-chat stream parser with reasoning tags', () => {
  const tags = { reasoningTags: { open: '<think>', close: '</think>', startsInside: false } };
  const content = (id: string, text: string): string => `data: ${JSON.stringify({ id, choices: [{ index: 0, delta: { content: text } }] })}\n\n`;

  it('passes the tags through as text without reasoning tags', () => {
    const parser = createOpenAIChatStreamParser(context);
    const events = [...parser.push(content('t0', '<think>a</think>b') + 'data: [DONE]\n\n'), ...parser.end()];
    expect(toComparableEvents(events)).toEqual([
      { type: 'text-delta', text: '<think>a</think>b' },
      { type: 'stop', reason: { unified: 'end_turn', raw: undefined } },
    ]);
  });

  it('keeps what it held back when the body is cut off inside a block, before the truncation error', () => {
    const parser = createOpenAIChatStreamParser(context, tags);
    const events = [...parser.push(content('t1', 'Sure. <think>hmm ') + content('t1', '</th')), ...parser.end()];
    expect(toComparableEvents(events)).toEqual([
      { type: 'text-delta', text: 'Sure. ' },
      { type: 'thinking-delta', text: 'hmm </th' },
      {
        type: 'error',
        error: {
          kind: 'network',
          message: 'replay (openai-chat): the stream ended before [DONE] and without a finish_reason; the response was truncated',
          midStream: true,
        },
      },
    ]);
  });

  it('keeps a held-back partial tag before an error frame', () => {
    const parser = createOpenAIChatStreamParser(context, tags);
    const events = parser.push(content('t2', 'x <thi') + 'event: error\ndata: {"message":"overloaded"}\n\n');
    expect(toComparableEvents(events).map((event) => (event as { type: string; text?: string }).text ?? (event as { type: string }).type)).toEqual(['x <thi', 'error']);
  });

  it('ends an unclosed block at finish_reason, before the tool calls end', () => {
    const parser = createOpenAIChatStreamParser(context, tags);
    const events = parser.push(
      content('t3', '<think>plan') +
        'data: {"id":"t3","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]}}]}\n\n' +
        'data: {"id":"t3","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
    );
    expect(events.map((event) => event.type)).toEqual(['thinking-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'stop']);
  });
});
