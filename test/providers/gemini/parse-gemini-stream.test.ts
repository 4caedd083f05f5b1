import { describe, expect, it } from 'vitest';
import { parseGeminiStream } from '../../../src/providers/gemini/parse-gemini-stream.js';
import { ProviderError } from '../../../src/providers/provider-error.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';

const context = { provider: 'gemini', model: 'gemini-2.5-flash' };

function data(chunk: Record<string, unknown>): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

function candidate(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return { candidates: [{ content: { role: 'model', parts }, ...(finishReason !== undefined ? { finishReason } : {}) }] };
}

describe('parseGeminiStream', () => {
  it('parses a transcript fed as decoded text, without HTTP', () => {
    const fixture = loadFixture('gemini', 'parallel-function-calls');
    const parser = parseGeminiStream(context);
    const decoder = new TextDecoder();
    const events: StreamEvent[] = [];
    // Cut every 5 bytes: inside "Tōkyō" and between CR and LF.
    for (let i = 0; i < fixture.bytes.length; i += 5) events.push(...parser.push(decoder.decode(fixture.bytes.subarray(i, i + 5), { stream: true })));
    events.push(...parser.push(decoder.decode()), ...parser.end());
    expect(toComparableEvents(events)).toEqual(fixture.expected.events);
  });

  it('generates call ids from the fallback prefix when the chunk has no responseId, and {} for missing args', () => {
    const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
    const events = [...parser.push(data(candidate([{ functionCall: { name: 'now' } }], 'STOP'))), ...parser.end()];
    expect(events).toEqual([
      { type: 'tool-call-start', id: 'call_p_0', name: 'now' },
      { type: 'tool-call-delta', id: 'call_p_0', argsDelta: '{}' },
      { type: 'tool-call-end', id: 'call_p_0', name: 'now', args: {} },
      { type: 'stop', reason: { unified: 'tool_use', raw: 'STOP' } },
    ]);
  });

  it('keeps the last usage snapshot, even one that arrives after the finishReason', () => {
    const parser = parseGeminiStream(context);
    parser.push(data({ ...candidate([{ text: 'Hi' }], 'STOP'), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1 } }));
    parser.push(data({ usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3, toolUsePromptTokenCount: 4 } }));
    expect(parser.end()).toEqual([
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 3 } },
      { type: 'stop', reason: { unified: 'end_turn', raw: 'STOP' } },
    ]);
  });

  it('marks a signature on a thought part and on a bare part by where it sat', () => {
    const parser = parseGeminiStream(context);
    const events = parser.push(data(candidate([{ text: 'plan', thought: true, thoughtSignature: 's1' }, { thoughtSignature: 's2' }])));
    expect(events).toEqual([
      { type: 'thinking-delta', text: 'plan' },
      { type: 'thinking-signature', signature: 's1', providerData: { geminiPart: 'thought' } },
      { type: 'thinking-signature', signature: 's2', providerData: { geminiPart: 'bare' } },
    ]);
  });

  it('ends with a server error naming the field when a chunk does not fit the format', () => {
    const parser = parseGeminiStream(context);
    const events = [...parser.push(data(candidate([{ text: 'Hi' }]))), ...parser.push(data(candidate([{ text: 7 }])))];
    expect(toComparableEvents(events)).toEqual([
      { type: 'text-delta', text: 'Hi' },
      {
        type: 'error',
        error: {
          kind: 'server',
          message:
            'gemini (gemini): the stream sent an event that does not fit the gemini format at candidates[0].content.parts[0].text (Invalid input: expected string, received number): {"candidates":[{"content":{"role":"model","parts":[{"text":7}]}}]}',
          midStream: true,
        },
      },
    ]);
  });

  it('reads a null as absent, ignores null part kinds, and still fails on a read field of the wrong type', () => {
    const lenient = parseGeminiStream(context);
    const events = [
      ...lenient.push(data({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi', thought: null, functionCall: null, inlineData: null }] }, finishReason: null }], usageMetadata: null, promptFeedback: null })),
      ...lenient.push(data({ candidates: [{ content: { role: 'model', parts: null }, finishReason: 'STOP' }], responseId: null })),
      ...lenient.end(),
    ];
    expect(events).toEqual([{ type: 'text-delta', text: 'Hi' }, { type: 'stop', reason: { unified: 'end_turn', raw: 'STOP' } }]);
    const wrong = parseGeminiStream(context).push(data(candidate([{ functionCall: { name: 5, args: {} } }])));
    expect(wrong[0]?.type === 'error' && wrong[0].error.message).toContain(
      'at candidates[0].content.parts[0].functionCall.name (Invalid input: expected string, received number)',
    );
  });

  it('ends with a server error when a chunk is not JSON, and produces nothing afterwards', () => {
    const parser = parseGeminiStream(context);
    const events = parser.push('data: {"candidates": [\r\n\r\n');
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'server', message: 'gemini (gemini): the stream sent data that is not JSON: {"candidates": [', midStream: false } },
    ]);
    expect(parser.finished).toBe(true);
    expect(parser.push(data(candidate([{ text: 'late' }], 'STOP')))).toEqual([]);
    expect(parser.end()).toEqual([]);
  });

  it('flags a transport failure after content as mid-stream', () => {
    const parser = parseGeminiStream(context);
    parser.push(data(candidate([{ text: 'Hel' }])));
    const [event] = parser.fail(new ProviderError({ kind: 'network', message: 'reset', provider: 'gemini' }));
    expect(event?.type === 'error' && { kind: event.error.kind, midStream: event.error.midStream }).toEqual({ kind: 'network', midStream: true });
  });

  it('passes a call without a name on with an argument error instead of a nameless call', () => {
    const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
    const events = [...parser.push(data(candidate([{ functionCall: { args: { path: 'a.ts' } } }], 'STOP'))), ...parser.end()];
    expect(events).toEqual([
      { type: 'tool-call-start', id: 'call_p_0', name: '' },
      { type: 'tool-call-delta', id: 'call_p_0', argsDelta: '{"path":"a.ts"}' },
      { type: 'tool-call-end', id: 'call_p_0', name: '', args: { path: 'a.ts' }, argsError: 'the function call has no name' },
      { type: 'stop', reason: { unified: 'tool_use', raw: 'STOP' } },
    ]);
  });

  it('answers arguments that are not an object with an argument error', () => {
    const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
    const events = parser.push(data(candidate([{ functionCall: { name: 'read', args: ['a.ts'] } }])));
    expect(events.at(-1)).toEqual({ type: 'tool-call-end', id: 'call_p_0', name: 'read', args: {}, argsError: 'the arguments are not a JSON object: ["a.ts"]' });
  });

  it('ends a streamed call when the next one starts, and ignores an end part with no call open', () => {
    const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
    const events = [
      ...parser.push(data(candidate([{ functionCall: { name: 'a', willContinue: true } }]))),
      ...parser.push(data(candidate([{ functionCall: { partialArgs: [{ jsonPath: '$.n', numberValue: 1 }], willContinue: true } }]))),
      ...parser.push(data(candidate([{ functionCall: { name: 'b', willContinue: true, partialArgs: [{ jsonPath: '$.s', stringValue: 'x' }] } }]))),
      ...parser.push(data(candidate([{ functionCall: {} }, { functionCall: {} }], 'STOP'))),
      ...parser.end(),
    ];
    expect(events.filter((e) => e.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'call_p_0', name: 'a', args: { n: 1 } },
      { type: 'tool-call-end', id: 'call_p_1', name: 'b', args: { s: 'x' } },
    ]);
  });

  it('turns a streamed argument it cannot place into an argument error', () => {
    const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
    parser.push(data(candidate([{ functionCall: { name: 'a', willContinue: true } }])));
    const events = parser.push(data(candidate([{ functionCall: { partialArgs: [{ jsonPath: 'path', stringValue: 'x' }] } }])));
    expect(events.at(-1)).toEqual({ type: 'tool-call-end', id: 'call_p_0', name: 'a', args: {}, argsError: 'a streamed argument has a JSON path that cannot be read: "path"' });
  });

  it('never runs a streamed call the stream left open without a clean stop', () => {
    const open = (finishReason: string): StreamEvent[] => {
      const parser = parseGeminiStream(context, { fallbackIdPrefix: 'p' });
      parser.push(data(candidate([{ functionCall: { name: 'a', willContinue: true } }])));
      parser.push(data(candidate([{ functionCall: { partialArgs: [{ jsonPath: '$.n', numberValue: 1 }], willContinue: true } }], finishReason)));
      return parser.end();
    };
    expect(open('SAFETY')[1]).toEqual({ type: 'tool-call-end', id: 'call_p_0', name: 'a', args: { n: 1 }, argsError: 'the arguments were cut off (SAFETY)' });
    // Between two leaves with a normal stop: the call is taken as complete.
    expect(open('STOP')[1]).toEqual({ type: 'tool-call-end', id: 'call_p_0', name: 'a', args: { n: 1 } });
  });
});
