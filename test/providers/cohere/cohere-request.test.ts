import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CohereModel } from '../../../src/providers/cohere/cohere-model.js';
import type { ModelMessage } from '../../../src/providers/message.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../support/replay-server.js';

const apiKey = 'co-request-shape-key-0000';
const text = loadFixture('cohere', 'text');

function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'command-a-03-2025', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], ...overrides };
}

describe('cohere request shape', () => {
  let server: ReplayServer;
  let model: CohereModel;

  beforeAll(async () => {
    server = await startReplayServer();
    model = new CohereModel({ provider: 'cohere', modelId: 'command-a-03-2025', baseUrl: `${server.url}/`, apiKey, headers: { 'x-client-name': 'agentd-test' } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function send(request: ModelRequest, target: CohereModel = model): Promise<RecordedRequest> {
    server.enqueue({ body: text.bytes });
    const events = await collectEvents(target.stream(request, new AbortController().signal));
    expect(events.at(-1)?.type).toBe('stop');
    return server.requests.at(-1)!;
  }

  it('POSTs /v2/chat with a bearer key, JSON and SSE headers and a streaming body', async () => {
    const recorded = await send(baseRequest({ maxTokens: 2048, temperature: 0.3, stopSequences: ['END'], system: [{ text: 'Be brief.' }, { text: '' }, { text: 'Today is Monday.' }] }));
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe('/v2/chat');
    expect(recorded.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(recorded.headers['content-type']).toBe('application/json');
    expect(recorded.headers.accept).toBe('text/event-stream');
    expect(recorded.headers['x-client-name']).toBe('agentd-test');
    expect(recorded.body).toEqual({
      model: 'command-a-03-2025',
      messages: [
        { role: 'system', content: 'Be brief.\n\nToday is Monday.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      max_tokens: 2048,
      temperature: 0.3,
      stop_sequences: ['END'],
    });
  });

  it('sends no Authorization when no key is configured (credentials in headers)', async () => {
    const keyless = new CohereModel({ provider: 'gateway', modelId: 'command-r-08-2024', baseUrl: server.url, headers: { 'x-gateway-key': 'gw' } });
    const recorded = await send(baseRequest({ model: '' }), keyless);
    expect(recorded.headers.authorization).toBeUndefined();
    expect(recorded.headers['x-gateway-key']).toBe('gw');
    expect((recorded.body as { model: string }).model).toBe('command-r-08-2024');
  });

  it('sends tools in the v2 format and the history with tool_calls, tool_plan and tool results, names spelled the way Cohere takes them', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is in this picture and the issue?' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look up the issue.' },
          { type: 'tool_call', id: 'call_1', name: 'github-issues', args: { number: 7 } },
          { type: 'tool_call', id: 'call_2', name: 'read', args: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_1', toolName: 'github-issues', content: [{ type: 'text', text: 'not found' }], isError: true },
          { type: 'tool_result', toolCallId: 'call_2', toolName: 'read', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Ticket 7 does not exist.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ];
    const tools = [
      { name: 'github-issues', description: 'Find an issue.', inputSchema: { type: 'object', properties: { number: { type: 'integer' } } } },
      { name: '2fa_code', description: 'A code.', inputSchema: { properties: {} } },
    ];
    const recorded = await send(baseRequest({ messages, tools }));
    const body = recorded.body as { messages: unknown[]; tools: unknown[] };
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'github_issues', description: 'Find an issue.', parameters: tools[0]!.inputSchema } },
      { type: 'function', function: { name: 't_2fa_code', description: 'A code.', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture and the issue?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        tool_plan: 'Let me look up the issue.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'github_issues', arguments: '{"number":7}' } },
          { id: 'call_2', type: 'function', function: { name: 'read', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'Error: not found' }] },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '(1 image(s) left out: Cohere tool results take text only)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Ticket 7 does not exist.' }] },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it.each([
    { model: 'command-a-reasoning-08-2025', thinking: 'off', expected: { type: 'disabled' } },
    { model: 'command-a-reasoning-08-2025', thinking: 'low', expected: { type: 'enabled', token_budget: 4096 } },
    { model: 'command-a-plus-05-2026', thinking: 'high', expected: { type: 'enabled' } },
    { model: 'command-a-03-2025', thinking: 'high', expected: undefined },
    { model: 'command-a-reasoning-08-2025', thinking: undefined, expected: undefined },
  ] as const)('$model with thinking $thinking sends thinking $expected', async ({ model: id, thinking, expected }) => {
    const recorded = await send(baseRequest({ model: id, ...(thinking !== undefined ? { thinking } : {}) }));
    expect((recorded.body as { thinking?: unknown }).thinking).toEqual(expected);
  });

  it('takes a budget from thinkingBudgets over the default', async () => {
    const recorded = await send(baseRequest({ model: 'command-a-reasoning-08-2025', thinking: 'medium', thinkingBudgets: { medium: 2000 } }));
    expect((recorded.body as { thinking?: unknown }).thinking).toEqual({ type: 'enabled', token_budget: 2000 });
  });
});
