import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesStream } from '../../src/providers/anthropic-messages/parse-anthropic-messages-stream.js';
import { createOpenAIChatStreamParser } from '../../src/providers/openai-chat/parse-openai-chat-stream.js';
import { createOpenAIResponsesStreamParser } from '../../src/providers/openai-responses/parse-openai-responses-stream.js';
import { parseToolArguments } from '../../src/providers/parse-tool-arguments.js';
import type { StreamEvent } from '../../src/providers/stream-event.js';

const context = { provider: 'replay', model: 'test-model' };

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** One call to `write` with these arguments text, as each streaming protocol sends it. */
const protocols: Record<string, (args: string) => StreamEvent[]> = {
  'anthropic-messages': (args) =>
    parseAnthropicMessagesStream(context).push(
      sse({ type: 'message_start', message: { usage: { input_tokens: 1 } } }) +
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'c1', name: 'write', input: {} } }) +
        sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: args } }) +
        sse({ type: 'content_block_stop', index: 0 }),
    ),
  'openai-chat': (args) =>
    createOpenAIChatStreamParser(context).push(
      sse({ id: 'r1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'write', arguments: args } }] } }] }) +
        sse({ id: 'r1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
    ),
  'openai-responses': (args) =>
    createOpenAIResponsesStreamParser(context).push(
      sse({ type: 'response.output_item.done', item: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'write', arguments: args } }),
    ),
};

function endOf(events: StreamEvent[]): { args: Record<string, unknown>; argsError?: string } {
  const end = events.find((event) => event.type === 'tool-call-end');
  if (end?.type !== 'tool-call-end') throw new Error('no tool-call-end');
  return end.argsError === undefined ? { args: end.args } : { args: end.args, argsError: end.argsError };
}

describe('parseToolArguments', () => {
  it('reads an object, empty text as no arguments, and a JSON string holding the object', () => {
    expect(parseToolArguments('{"path":"a"}', 'read')).toEqual({ args: { path: 'a' } });
    expect(parseToolArguments('  ', 'read')).toEqual({ args: {} });
    expect(parseToolArguments('"{\\"path\\":\\"a\\"}"', 'read')).toEqual({ args: { path: 'a' } });
  });

  it('names the tool and quotes the text when the arguments are cut off or no object', () => {
    expect(parseToolArguments('{"path":"a', 'read')).toEqual({ args: {}, argsError: 'the arguments of read are not valid JSON (cut off or malformed): {"path":"a' });
    expect(parseToolArguments('[1]', 'read')).toEqual({ args: {}, argsError: 'the arguments of read are JSON but not an object: [1]' });
    expect(parseToolArguments(`{"text":"${'x'.repeat(300)}`, 'read').argsError).toHaveLength('the arguments of read are not valid JSON (cut off or malformed): '.length + 201);
  });

  it.each(Object.keys(protocols))('%s: the same arguments fail the same way', (protocol) => {
    const parse = protocols[protocol];
    if (parse === undefined) throw new Error(protocol);
    expect(endOf(parse('{"path":"a.md","content":"# Ti'))).toEqual(parseToolArguments('{"path":"a.md","content":"# Ti', 'write'));
    expect(endOf(parse('[1,2]'))).toEqual({ args: {}, argsError: 'the arguments of write are JSON but not an object: [1,2]' });
    expect(endOf(parse('"{\\"path\\":\\"a\\"}"'))).toEqual({ args: { path: 'a' } });
  });
});
