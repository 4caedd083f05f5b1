import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../../src/providers/message.js';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { collectEvents } from '../../support/collect-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const okStream = 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

/** A session's history: the same message objects request after request, one turn longer each time. */
function turn(n: number): ModelMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: `step ${n}: "read" it — ünïcode \u2028` }] },
    {
      role: 'assistant',
      model: 'p/gpt-test',
      content: [
        { type: 'thinking', text: `think ${n}` },
        { type: 'text', text: `reading ${n}` },
        { type: 'tool_call', id: `call_${n}`, name: 'read', args: { path: `f${n}.txt`, lines: [1, 2] } },
      ],
    },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: `call_${n}`, toolName: 'read', content: [{ type: 'text', text: `contents ${n}` }], ...(n % 2 ? { isError: true } : {}) }] },
  ];
}

async function sendAndRecord(model: OpenAIChatModel, request: ModelRequest): Promise<string> {
  server.enqueue({ body: okStream });
  await collectEvents(model.stream(request, new AbortController().signal));
  return server.requests.at(-1)!.text;
}

describe('OpenAIChatModel over a growing history', () => {
  it('sends, request after request, exactly the bytes the same history built afresh serializes to', async () => {
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1`, quirks: { replayReasoningContent: true } });
    const history: ModelMessage[] = [];
    for (let n = 0; n < 4; n++) {
      history.push(...turn(n));
      const request: ModelRequest = { model: '', system: [{ text: 'sys' }], messages: [...history], tools: [], maxTokens: 100 };
      const sent = await sendAndRecord(model, request);
      // structuredClone: new objects the converter has never seen, serialized by JSON.stringify itself.
      expect(sent).toBe(JSON.stringify(model.body(structuredClone(request))));
    }
    // The same message objects to a model that does not replay reasoning: its own wire form.
    const plain = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1` });
    const request: ModelRequest = { model: '', system: [], messages: [...history], tools: [] };
    const sent = await sendAndRecord(plain, request);
    expect(sent).toBe(JSON.stringify(plain.body(structuredClone(request))));
    expect(sent).not.toContain('reasoning_content');
  });

  it('follows the history when a message in the middle is replaced, the history is compacted, or the caller changes its array', async () => {
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1`, quirks: { replayReasoningContent: true } });
    const plain = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1` });
    const history: ModelMessage[] = [];
    for (let n = 0; n < 6; n++) history.push(...turn(n));
    const histories: ModelMessage[][] = [[...history]];
    // A tool result in the middle replaced by a new object (as the tool-result budget does), then the next one too.
    const budgeted = (at: number): ModelMessage => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: `call_${Math.floor(at / 3)}`, toolName: 'read', content: [{ type: 'text', text: `[omitted ${at}]` }] }] });
    const once = [...history];
    once[5] = budgeted(5);
    const twice = [...once];
    twice[8] = budgeted(8);
    histories.push(once, twice, [...twice, ...turn(6)]);
    // Compacted: a summary and the newest messages, then growing from there.
    const summary: ModelMessage = { role: 'user', content: [{ type: 'text', text: '<summary of the earlier conversation>s</summary>' }] };
    histories.push([summary, ...history.slice(-3)], [summary, ...history.slice(-3), ...turn(7)]);
    for (const messages of histories) {
      for (const target of [model, plain]) {
        const request: ModelRequest = { model: '', system: [{ text: 'sys' }], messages, tools: [], maxTokens: 100 };
        expect(await sendAndRecord(target, request)).toBe(JSON.stringify(target.body(structuredClone(request))));
      }
    }
    // The same array, sent, then changed in place by its owner and sent again.
    const owned = [...history];
    await sendAndRecord(model, { model: '', system: [], messages: owned, tools: [] });
    owned[4] = { role: 'assistant', model: 'p/gpt-test', content: [{ type: 'text', text: 'changed in place' }] };
    const request: ModelRequest = { model: '', system: [], messages: owned, tools: [] };
    const sent = await sendAndRecord(model, request);
    expect(sent).toBe(JSON.stringify(model.body(structuredClone(request))));
    expect(sent).toContain('changed in place');
  });
});
