import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../../src/providers/message.js';
import { convertToOpenAIChatMessages } from '../../../src/providers/openai-chat/convert-to-openai-chat-messages.js';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import { collectEvents } from '../../support/collect-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const okStream = 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

// A garbage collection on demand: the flag is on only while the function is taken, so the
// test files that share this worker see V8's flags as they were.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

function turn(n: number): ModelMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: `step ${n} `.repeat(2_000) }] },
    { role: 'assistant', model: 'p/gpt-test', content: [{ type: 'text', text: `reading ${n}` }, { type: 'tool_call', id: `call_${n}`, name: 'read', args: { n } }] },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: `call_${n}`, toolName: 'read', content: [{ type: 'text', text: `contents ${n} `.repeat(2_000) }] }] },
  ];
}

/** Sends a session's history a few times, as its requests would, and hands back weak references to what it made. */
async function sessionThatEnds(model: OpenAIChatModel): Promise<Array<WeakRef<object>>> {
  const history: ModelMessage[] = [];
  for (let n = 0; n < 40; n++) history.push(...turn(n));
  const requests = [[...history], [...history, ...turn(40)]];
  const changed = [...requests[1]!];
  changed[10] = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_3', toolName: 'read', content: [{ type: 'text', text: '[omitted]' }] }] };
  requests.push(changed);
  for (const messages of requests) {
    server.enqueue({ body: okStream });
    await collectEvents(model.stream({ model: '', system: [{ text: 'sys' }], messages, tools: [], maxTokens: 100 }, new AbortController().signal));
  }
  const wireItems = convertToOpenAIChatMessages([], changed, { systemRole: 'system', replayReasoningContent: false });
  return [...changed, ...wireItems].map((item) => new WeakRef(item));
}

describe('a dropped session', () => {
  it('leaves nothing behind: its messages, their wire items and encoded bytes can all be collected', async () => {
    const model = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1` });
    const refs = await sessionThatEnds(model);
    expect(refs.length).toBeGreaterThan(200);
    // A weak reference holds its object until the current job ends: collect between turns of the loop.
    for (let round = 0; round < 10 && refs.some((ref) => ref.deref() !== undefined); round++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });
});
