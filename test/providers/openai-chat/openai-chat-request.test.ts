import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../../src/providers/openai-chat/openai-chat-model.js';
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

const conversation: ModelRequest = {
  model: 'gpt-test',
  system: [{ text: 'You are agentd.' }, { text: 'Project rules.', cacheBoundary: true }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Look at the file first.', signature: 'sig' },
        { type: 'text', text: 'Let me read it.' },
        { type: 'tool_call', id: 'call_1', name: 'read', args: { path: 'a.txt' } },
        { type: 'tool_call', id: 'call_2', name: 'screenshot', args: {} },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool_result', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'hello' }] },
        {
          type: 'tool_result',
          toolCallId: 'call_2',
          toolName: 'screenshot',
          content: [{ type: 'image', data: 'R0lGOD==', mimeType: 'image/gif' }],
          isError: false,
        },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
  ],
  tools: [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  maxTokens: 1000,
  temperature: 0.2,
  stopSequences: ['END'],
  thinking: 'high',
};

async function send(options: Partial<OpenAIChatModelOptions>, request: ModelRequest = conversation) {
  server.enqueue({ body: okStream });
  const model = new OpenAIChatModel({ provider: 'p', modelId: 'gpt-test', baseUrl: `${server.url}/v1/`, ...options });
  const events = await collectEvents(model.stream(request, new AbortController().signal));
  expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } });
  const sent = server.requests.at(-1);
  if (sent === undefined) throw new Error('no request recorded');
  return sent;
}

describe('OpenAIChatModel request shape', () => {
  it('POSTs the conversation to /chat/completions with bearer auth', async () => {
    const sent = await send({ apiKey: 'sk-abc', headers: { 'x-extra': '1' } });
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk-abc');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['accept']).toBe('text/event-stream');
    expect(sent.headers['x-extra']).toBe('1');
    expect(sent.headers['api-key']).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are agentd.\n\nProject rules.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me read it.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
            { id: 'call_2', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
        { role: 'tool', tool_call_id: 'call_2', content: '(1 image(s), attached below)' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Images returned by the tool calls above:' },
            { type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lGOD==' } },
          ],
        },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
        },
      ],
      max_tokens: 1000,
      temperature: 0.2,
      stop: ['END'],
    });
  });

  it('sends no auth header, tools or stream_options when there is no key, no tool and the quirk says so', async () => {
    const sent = await send({ quirks: { streamUsage: false } }, { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [] });
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.body).toEqual({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'x' }] });
  });

  it('uses developer role, max_completion_tokens and reasoning_effort for reasoning models, without temperature', async () => {
    const sent = await send({
      quirks: { reasoningModels: '^(o\\d|gpt-)', reasoningSystemRole: 'developer', maxTokensField: 'max_completion_tokens', replayReasoningContent: true },
    });
    const body = sent.body as Record<string, unknown>;
    const messages = body['messages'] as Array<Record<string, unknown>>;
    expect(messages[0]).toEqual({ role: 'developer', content: 'You are agentd.\n\nProject rules.' });
    expect(messages[2]?.['reasoning_content']).toBe('Look at the file first.');
    expect(body['max_completion_tokens']).toBe(1000);
    expect(body['max_tokens']).toBeUndefined();
    expect(body['reasoning_effort']).toBe('high');
    expect(body['temperature']).toBeUndefined();
  });

  it('maps thinking levels through the quirk table and leaves out reasoning_effort for off', async () => {
    const quirks = { reasoningModels: 'gpt', reasoningEffort: { minimal: 'low' } };
    const minimal = await send({ quirks }, { ...conversation, thinking: 'minimal' });
    expect((minimal.body as Record<string, unknown>)['reasoning_effort']).toBe('low');
    const off = await send({ quirks }, { ...conversation, thinking: 'off' });
    expect((off.body as Record<string, unknown>)['reasoning_effort']).toBeUndefined();
    const notReasoning = await send({ quirks: { reasoningModels: '^o\\d' } });
    expect((notReasoning.body as Record<string, unknown>)['reasoning_effort']).toBeUndefined();
    expect((notReasoning.body as Record<string, unknown>)['messages']).toContainEqual({ role: 'system', content: 'You are agentd.\n\nProject rules.' });
  });

  it('marks failed tool results and skips assistant turns with nothing to send', async () => {
    const sent = await send(
      {},
      {
        model: 'm',
        system: [],
        messages: [
          { role: 'assistant', content: [{ type: 'thinking', text: 'only thoughts' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c', toolName: 't', content: [{ type: 'text', text: 'boom' }], isError: true }] },
        ],
        tools: [],
      },
    );
    expect((sent.body as Record<string, unknown>)['messages']).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'Error: boom' }]);
  });

  it('speaks Azure: deployment URL with api-version and an api-key header', async () => {
    const sent = await send({ apiKey: 'azure-key', azure: { apiVersion: '2024-10-21', deployment: 'my gpt' }, baseUrl: server.url });
    expect(sent.path).toBe('/openai/deployments/my%20gpt/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe('azure-key');
    expect(sent.headers['authorization']).toBeUndefined();
  });

  it('rejects an empty base URL with a fix', () => {
    expect(() => new OpenAIChatModel({ provider: 'local', modelId: 'm', baseUrl: ' ' })).toThrow('set providers.local.baseUrl');
  });
});
