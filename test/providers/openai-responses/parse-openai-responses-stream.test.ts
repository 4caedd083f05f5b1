import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesStreamParser } from '../../../src/providers/openai-responses/parse-openai-responses-stream.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { accumulateMessage } from '../../support/collect-events.js';
import { listFixtures, loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { fixtureChunkings } from '../../support/replay-all-splits.js';
import { splitIntoChunks } from '../../support/split-into-chunks.js';

const context = { provider: 'openai', model: 'gpt-5.1' };

/** Runs bytes through a streaming TextDecoder and the parser, as the model glue does. */
function parseBytes(chunks: Uint8Array[]): StreamEvent[] {
  const parser = createOpenAIResponsesStreamParser(context);
  const decoder = new TextDecoder('utf-8');
  const events: StreamEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(decoder.decode(chunk, { stream: true })));
  events.push(...parser.push(decoder.decode()), ...parser.end());
  return events;
}

function parseText(text: string): StreamEvent[] {
  return parseBytes([new TextEncoder().encode(text)]);
}

// HTTP error fixtures are JSON bodies classified by the HTTP layer; the model test replays them.
const streamFixtures = listFixtures('openai-responses').filter((name) => !name.startsWith('http-'));

describe('parseOpenAIResponsesStream on the fixtures', () => {
  it('has the required scenarios', () => {
    expect(streamFixtures.length).toBeGreaterThanOrEqual(12);
  });

  for (const scenario of streamFixtures) {
    it(`${scenario}: yields exactly the expected events under every split`, () => {
      const fixture = loadFixture('openai-responses', scenario);
      for (const { label, chunking } of fixtureChunkings(fixture.bytes)) {
        const events = parseBytes(splitIntoChunks(fixture.bytes, chunking));
        expect(toComparableEvents(events), label).toEqual(toComparableEvents(fixture.expected.events));
        if (fixture.expected.message) expect(accumulateMessage(events), label).toEqual(fixture.expected.message);
      }
    });
  }
});

describe('parseOpenAIResponsesStream edge cases', () => {
  const completed = 'data: {"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":3,"output_tokens":1}}}\n\n';

  it('ignores everything after the terminal event', () => {
    const events = parseText(`${completed}data: {"type":"response.output_text.delta","delta":"late"}\n\n`);
    expect(events.map((event) => event.type)).toEqual(['usage', 'stop']);
  });

  it('accepts events without an `event:` line and ignores a stray [DONE]', () => {
    const events = parseText(`data: {"type":"response.output_text.delta","delta":"hi"}\n\ndata: [DONE]\n\n${completed}`);
    expect(events).toEqual([
      { type: 'text-delta', text: 'hi' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: 'stop', reason: { unified: 'end_turn', raw: 'completed' } },
    ]);
  });

  it('reports a data line that is not JSON as a server error naming the payload', () => {
    const [event] = parseText('data: {"type":"response.output_text.delta",\n\n');
    expect(event?.type).toBe('error');
    if (event?.type !== 'error') return;
    expect(event.error.kind).toBe('server');
    expect(event.error.message).toContain('not JSON');
    expect(event.error.midStream).toBe(false);
  });

  it('reports an event that does not fit the format as a server error naming the field', () => {
    const events = parseText('data: {"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","arguments":{"path":"a"}}}\n\n');
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'server',
          message:
            'openai (openai-responses): the stream sent a "response.output_item.done" event that does not fit the openai-responses format at item.arguments (Invalid input: expected string, received object): {"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","arguments":{"path":"a"}}}',
          midStream: false,
        },
      },
    ]);
  });

  it('checks only what it reads of an item: a hosted tool search passes, one the client must run is told about, a read field of the wrong type fails', () => {
    const search = (execution: string): string =>
      `data: {"type":"response.output_item.done","item":{"type":"tool_search_call","id":"tsc_${execution}","call_id":null,"execution":"${execution}","arguments":{"query":"calendar"},"status":"completed"}}\n\n`;
    expect(parseText(search('server') + completed).map((event) => event.type)).toEqual(['usage', 'stop']);
    expect(parseText(search('client') + completed)[0]).toEqual({
      type: 'notice',
      message: 'The model sent an output item agentd does not run: tool_search_call. It was ignored; only function tools are carried out.',
    });
    // Nulls where a read field is optional count as absent.
    const nulls = parseText(
      'data: {"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_1","encrypted_content":null,"summary":null}}\n\n' +
        'data: {"type":"response.completed","response":{"usage":{"input_tokens":3,"input_tokens_details":null,"output_tokens":null},"incomplete_details":null}}\n\n',
    );
    expect(nulls.map((event) => event.type)).toEqual(['usage', 'stop']);
    const wrong = parseText('data: {"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":"0","delta":"x"}\n\n');
    expect(wrong[0]?.type === 'error' && wrong[0].error.message).toContain(
      'a "response.reasoning_summary_text.delta" event that does not fit the openai-responses format at summary_index (Invalid input: expected number, received string)',
    );
  });

  it('uses the deltas when a function call ends without `.done` arguments', () => {
    const events = parseText(
      [
        'data: {"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f"}}',
        'data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{\\"a\\":"}',
        'data: {"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"1}"}',
        'data: {"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f"}}',
        '',
      ].join('\n\n'),
    );
    expect(events.at(-2)).toEqual({ type: 'tool-call-end', id: 'call_1', name: 'f', args: { a: 1 }, providerData: { itemId: 'fc_1' } });
  });

  it('reports arguments that are JSON but not an object', () => {
    const events = parseText(
      'data: {"type":"response.output_item.done","item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"g","arguments":"[1,2]"}}\n\n',
    );
    expect(events).toContainEqual({
      type: 'tool-call-end',
      id: 'call_2',
      name: 'g',
      args: {},
      argsError: 'the arguments of g are JSON but not an object: [1,2]',
      providerData: { itemId: 'fc_2' },
    });
  });

  it('closes no reasoning block when the item carries no encrypted content', () => {
    const events = parseText(
      'data: {"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_1","summary":[]}}\n\n' + completed,
    );
    expect(events.map((event) => event.type)).toEqual(['usage', 'stop']);
  });

  it('maps an unknown incomplete reason to an error stop and a failed response without error object to a server error', () => {
    const incomplete = parseText('data: {"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"other"}}}\n\n');
    expect(incomplete.at(-1)).toEqual({ type: 'stop', reason: { unified: 'error', raw: 'other' } });
    const failed = parseText('data: {"type":"response.failed","response":{"status":"failed","error":null}}\n\n');
    expect(failed[0]?.type === 'error' && failed[0].error.kind).toBe('server');
  });

  it('returns nothing from push after done and only one terminal event from end', () => {
    const parser = createOpenAIResponsesStreamParser(context);
    expect(parser.push(completed)).toHaveLength(2);
    expect(parser.finished).toBe(true);
    expect(parser.push(completed)).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});
