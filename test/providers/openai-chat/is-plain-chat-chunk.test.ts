import { describe, expect, it } from 'vitest';
import { isPlainChatChunk } from '../../../src/providers/openai-chat/is-plain-chat-chunk.js';
import { chatChunkSchema } from '../../../src/providers/openai-chat/openai-chat-stream-schema.js';

const content = (delta: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
  ...extra,
});

describe('isPlainChatChunk', () => {
  const plain: Array<[string, Record<string, unknown>]> = [
    ['a content delta', content({ content: 'Hi' })],
    ['the role chunk', content({ role: 'assistant', content: '' })],
    ['the finish chunk', { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
    ['nulls where fields are nullish', { id: null, choices: [{ index: null, delta: { content: null, role: null, tool_calls: null }, finish_reason: null }], usage: null }],
    ['no choices', { id: 'c1' }],
  ];
  const notPlain: Array<[string, Record<string, unknown>, string | undefined]> = [
    ['usage', content({}, { usage: { prompt_tokens: 1 } }), undefined],
    ['a tool call piece', content({ tool_calls: [{ index: 0, function: { arguments: '{' } }] }), undefined],
    ['reasoning', content({ reasoning_content: 'hm' }), undefined],
    ['a refusal', content({ refusal: 'no' }), undefined],
    ['array content (Mistral)', content({ content: [{ type: 'text', text: 'a' }] }), undefined],
    ['an error field', content({}, { error: { message: 'boom' } }), undefined],
    ['an event: error frame', { message: 'boom' }, 'error'],
    ['content of the wrong type', content({ content: 5 }), undefined],
    ['choices that are not an array', { id: 'c1', choices: {} }, undefined],
    ['an id of the wrong type', content({ content: 'a' }, { id: 7 }), undefined],
  ];

  it.each(plain)('reads %s as it is, which the schema accepts too', (_, chunk) => {
    expect(isPlainChatChunk(chunk, undefined)).toBe(true);
    expect(chatChunkSchema.safeParse(chunk).success).toBe(true);
  });

  it.each(notPlain)('sends %s through the schema', (_, chunk, event) => {
    expect(isPlainChatChunk(chunk, event)).toBe(false);
  });
});
