import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/provider-config-schema.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { AssistantMessage } from '../../../src/providers/message.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { accumulateMessage, collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// From config.json-shaped settings through the registry to the events: which models read
// <think> tags, how providers.<id>.quirks.reasoningTag and providers.<id>.models.<id>.reasoningTag
// change that, and what goes back to the server on the next request.

const ask: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] }], tools: [] };

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

function local(config: Omit<ProviderConfig, 'type' | 'baseUrl'> = {}) {
  return createProviderRegistry({ config: { providers: { local: { type: 'openai-chat', baseUrl: `${server.url}/v1`, ...config } } }, env: {}, breaker: new CircuitBreaker() });
}

/** The final message of one turn of `ref` answering with `body`. */
async function answer(registry: ReturnType<typeof local>, ref: string, body: Uint8Array | string, request: ModelRequest = ask): Promise<AssistantMessage> {
  server.enqueue({ body });
  return accumulateMessage(await collectEvents(registry.resolve(ref).stream(request, new AbortController().signal)));
}

/** A minimal Chat Completions stream whose content arrives in these deltas. */
function stream(...deltas: string[]): string {
  const chunk = (delta: object, finish: string | null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return deltas.map((content) => chunk({ content }, null)).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

const ollamaR1 = loadFixture('openai-chat', 'think-tags-ollama-deepseek-r1');
const r1Thinking = { type: 'thinking', text: 'Okay, so 2+2 is 4. Simple & quick.' } as const;

describe('reasoning tags from config', () => {
  it('are read by default for a known open reasoning model, and not for others', async () => {
    expect((await answer(local(), 'local/deepseek-r1:7b', ollamaR1.bytes)).content).toEqual([r1Thinking, { type: 'text', text: '2 + 2 = **4**' }]);
    expect((await answer(local(), 'local/llama3.1:8b', stream('<think>', 'x', '</think>', 'y'))).content).toEqual([{ type: 'text', text: '<think>x</think>y' }]);
  });

  it('are turned off for one model with models.<id>.reasoningTag false, the tags then shown as text', async () => {
    const message = await answer(local({ models: { 'deepseek-r1:7b': { reasoningTag: false } } }), 'local/deepseek-r1:7b', ollamaR1.bytes);
    expect(message.content).toEqual([{ type: 'text', text: '<think>\nOkay, so 2+2 is 4. Simple & quick.\n</think>\n\n2 + 2 = **4**' }]);
  });

  it('follow the provider setting, and a model setting wins over it', async () => {
    const registry = local({ quirks: { reasoningTag: 'thought' }, models: { 'special': { reasoningTag: { open: '[THINK]', close: '[/THINK]' } } } });
    expect((await answer(registry, 'local/any-model', stream('<tho', 'ught>why</th', 'ought>because'))).content).toEqual([
      { type: 'thinking', text: 'why' },
      { type: 'text', text: 'because' },
    ]);
    expect((await answer(registry, 'local/special', stream('[THINK]why[/THINK]', '<thought>literal</thought>'))).content).toEqual([
      { type: 'thinking', text: 'why' },
      { type: 'text', text: '<thought>literal</thought>' },
    ]);
    const off = local({ quirks: { reasoningTag: false } });
    expect((await answer(off, 'local/Qwen/Qwen3-8B', stream('<think>a</think>b'))).content).toEqual([{ type: 'text', text: '<think>a</think>b' }]);
  });

  it('start inside a block when configured so, for a model whose template opens it', async () => {
    const registry = local({ models: { 'my-tune': { reasoningTag: { open: '<think>', close: '</think>', startsInside: true } } } });
    expect((await answer(registry, 'local/my-tune', stream('plan', '\n</think>\n\n', 'done'))).content).toEqual([
      { type: 'thinking', text: 'plan' },
      { type: 'text', text: 'done' },
    ]);
  });

  it('leave the reasoning out of the next request, as the R1, QwQ and Qwen3 chat templates expect', async () => {
    const registry = local();
    const first = await answer(registry, 'local/deepseek-r1:7b', ollamaR1.bytes);
    const next: ModelRequest = {
      ...ask,
      messages: [...ask.messages, first, { role: 'user', content: [{ type: 'text', text: 'And 3+3?' }] }],
    };
    await answer(registry, 'local/deepseek-r1:7b', stream('6'), next);
    const body = server.requests.at(-1)?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '2 + 2 = **4**' },
      { role: 'user', content: 'And 3+3?' },
    ]);
  });
});
