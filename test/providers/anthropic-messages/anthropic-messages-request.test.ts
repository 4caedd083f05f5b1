import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import type { AssistantMessage, ModelMessage } from '../../../src/providers/message.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { accumulateMessage, collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../support/replay-server.js';

const apiKey = 'sk-ant-api03-request-shape-key';
const textOnly = loadFixture('anthropic-messages', 'text-only');

function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-4-5-20250929',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    tools: [],
    maxTokens: 2048,
    ...overrides,
  };
}

describe('anthropic-messages request shape', () => {
  let server: ReplayServer;
  let model: AnthropicMessagesModel;

  beforeAll(async () => {
    server = await startReplayServer();
    model = new AnthropicMessagesModel({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5-20250929',
      baseUrl: `${server.url}/`,
      apiKey,
      headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Send one request against the text-only transcript and return what the server saw. */
  async function send(request: ModelRequest, target: AnthropicMessagesModel = model): Promise<RecordedRequest> {
    server.enqueue({ body: textOnly.bytes });
    const events = await collectEvents(target.stream(request, new AbortController().signal));
    expect(events.at(-1)?.type).toBe('stop');
    const recorded = server.requests.at(-1);
    if (recorded === undefined) throw new Error('the server recorded no request');
    return recorded;
  }

  function body(recorded: RecordedRequest): Record<string, unknown> {
    return recorded.body as Record<string, unknown>;
  }

  it('POSTs /v1/messages with the key, version and JSON headers and a streaming body', async () => {
    const recorded = await send(baseRequest({ temperature: 0.3, stopSequences: ['END'] }));
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe('/v1/messages');
    expect(recorded.headers['x-api-key']).toBe(apiKey);
    expect(recorded.headers['anthropic-version']).toBe('2023-06-01');
    expect(recorded.headers['content-type']).toBe('application/json');
    expect(recorded.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(recorded.headers.authorization).toBeUndefined();
    expect(body(recorded)).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 2048,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.3,
      stop_sequences: ['END'],
    });
  });

  it('sends no x-api-key when none is configured and defaults max_tokens', async () => {
    const keyless = new AnthropicMessagesModel({ provider: 'gateway', modelId: 'claude-haiku-4-5', baseUrl: server.url, headers: { authorization: 'Bearer gw' } });
    const recorded = await send(baseRequest({ model: 'claude-haiku-4-5', maxTokens: undefined }), keyless);
    expect(recorded.headers['x-api-key']).toBeUndefined();
    expect(recorded.headers.authorization).toBe('Bearer gw');
    expect(body(recorded).max_tokens).toBe(4096);
  });

  it('puts the system prompt in top-level text blocks with cache_control on the stable-prefix boundary', async () => {
    const recorded = await send(
      baseRequest({ system: [{ text: 'Role prompt.' }, { text: 'AGENTS.md rules.', cacheBoundary: true }, { text: '' }, { text: 'Today is Monday.' }] }),
    );
    expect(body(recorded).system).toEqual([
      { type: 'text', text: 'Role prompt.' },
      { type: 'text', text: 'AGENTS.md rules.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Today is Monday.' },
    ]);
    expect((body(recorded).messages as Array<{ role: string }>).map((m) => m.role)).toEqual(['user']);
  });

  it('marks the last two user-side messages when cacheMessages is set, never exceeding four breakpoints', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_1', name: 'read', args: { path: 'a' } }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_1', toolName: 'read', content: [{ type: 'text', text: 'A' }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Read it.' }] },
      { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'more' }] },
    ];
    const system = [1, 2, 3, 4].map((n) => ({ text: `block ${n}`, cacheBoundary: true }));
    const sent = body(await send(baseRequest({ system, messages, cacheMessages: true })));
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(4);
    expect((sent.system as Array<{ cache_control?: unknown }>).map((b) => b.cache_control !== undefined)).toEqual([false, false, true, true]);
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'A' }], cache_control: { type: 'ephemeral' } }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Read it.' }] },
      { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'more', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('sends tool results as tool_result blocks in one user message, errors flagged, roles alternating', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Check both.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Calling.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'toolu_a', name: 'bash', args: { cmd: 'ls' } },
          { type: 'tool_call', id: 'toolu_b', name: 'bash', args: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'toolu_a', toolName: 'bash', content: [{ type: 'text', text: 'README.md' }] },
          { type: 'tool_result', toolCallId: 'toolu_b', toolName: 'bash', content: [{ type: 'text', text: 'exit 1' }], isError: true },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Also, hurry.' }] },
    ];
    expect(body(await send(baseRequest({ messages }))).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Check both.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Calling.' },
          { type: 'tool_use', id: 'toolu_a', name: 'bash', input: { cmd: 'ls' } },
          { type: 'tool_use', id: 'toolu_b', name: 'bash', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'README.md' }] },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'exit 1' }], is_error: true },
          { type: 'text', text: 'Also, hurry.' },
        ],
      },
    ]);
  });

  it('sends images as base64 image blocks, in user messages and tool results', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_s', name: 'screenshot', args: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'toolu_s', toolName: 'screenshot', content: [{ type: 'image', data: '/9j/4AAQ', mimeType: 'image/jpeg' }] }],
      },
    ];
    const sent = body(await send(baseRequest({ messages }))).messages as Array<{ content: unknown[] }>;
    expect(sent[0]?.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(sent[2]?.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_s',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } }],
    });
  });

  it('sends tools as name, description and input_schema', async () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const sent = body(await send(baseRequest({ tools: [{ name: 'read', description: 'Read a file', inputSchema: schema }] })));
    expect(sent.tools).toEqual([{ name: 'read', description: 'Read a file', input_schema: schema }]);
  });

  it('maps thinking levels to budget_tokens, raises max_tokens above the budget and drops temperature', async () => {
    const medium = body(await send(baseRequest({ thinking: 'medium', maxTokens: 4096, temperature: 0.7 })));
    expect(medium.thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
    expect(medium.max_tokens).toBe(14_096);
    expect(medium.temperature).toBeUndefined();

    const roomy = body(await send(baseRequest({ thinking: 'minimal', maxTokens: 16_000 })));
    expect(roomy.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(roomy.max_tokens).toBe(16_000);

    const custom = body(await send(baseRequest({ thinking: 'high', thinkingBudgets: { high: 50_000 }, maxTokens: 64_000 })));
    expect(custom.thinking).toEqual({ type: 'enabled', budget_tokens: 50_000 });

    const off = body(await send(baseRequest({ thinking: 'off', temperature: 0 })));
    expect(off.thinking).toBeUndefined();
    expect(off.temperature).toBe(0);
  });

  it('refuses a thinking budget below the minimum with a bad_request error and sends nothing', async () => {
    const before = server.requests.length;
    const events = await collectEvents(model.stream(baseRequest({ thinking: 'low', thinkingBudgets: { low: 500 } }), new AbortController().signal));
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'bad_request',
          message:
            'anthropic (anthropic-messages): thinkingBudgets.low is 500, but Anthropic needs an integer budget of at least 1024 tokens; raise it or pick another thinking level',
          midStream: false,
        },
      },
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('sends back its own thinking with signatures and redacted thinking unchanged, and drops foreign or unsigned reasoning', async () => {
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'from another vendor', signature: 'gemini-sig', providerProtocol: 'gemini' },
        { type: 'thinking', text: 'unsigned, aborted', providerProtocol: 'anthropic-messages' },
        { type: 'thinking', text: 'Plan: add.', signature: 'EqQBsig==', providerProtocol: 'anthropic-messages' },
        { type: 'thinking', text: '', redacted: 'EmwKredacted==', providerProtocol: 'anthropic-messages' },
        { type: 'text', text: '' },
        { type: 'text', text: 'Done.' },
      ],
    };
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Add.' }] }, assistant, { role: 'user', content: [{ type: 'text', text: 'Next.' }] }];
    expect((body(await send(baseRequest({ messages }))).messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Plan: add.', signature: 'EqQBsig==' },
        { type: 'redacted_thinking', data: 'EmwKredacted==' },
        { type: 'text', text: 'Done.' },
      ],
    });
  });

  it('round-trips a streamed thinking turn: what it parsed is what it sends back', async () => {
    const fixture = loadFixture('anthropic-messages', 'redacted-thinking');
    server.enqueue({ body: fixture.bytes, chunking: { random: 5 } });
    const events = await collectEvents(model.stream(baseRequest({ thinking: 'low' }), new AbortController().signal));
    const parsed = accumulateMessage(events);
    // The loop stamps reasoning with the protocol that produced it before storing it.
    const stored: AssistantMessage = {
      role: 'assistant',
      content: parsed.content.map((part) => (part.type === 'thinking' ? { ...part, providerProtocol: model.protocol } : part)),
    };
    const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }, stored, { role: 'user', content: [{ type: 'text', text: 'Go on.' }] }];
    const sent = body(await send(baseRequest({ messages, thinking: 'low' }))).messages as unknown[];
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'Considering the request.',
          signature:
            'ErcBCkgIBhABGAIiQPtqbqzU1MAlqyTj8oIXmUKvLGc9Dm0Au3kZ1lKpFS1u0Tj3t6KeuLQfV4Gz1Y6wHJmEx+2WxbGTKUSoAvWIt/kSDHgr4Ov4bvl8nwCEfRoMBq0Ah7n2vAR2Ov+JIjBZx5F8o0==',
        },
        {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB4URj5pJYnPQLt2wA9ZkKf2Xc8g0Z2ktmx1jJb8nQ==',
        },
        { type: 'text', text: 'Here is my answer.' },
      ],
    });
  });

  it('keeps the API key out of the URL and out of error messages', async () => {
    server.enqueue({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${apiKey}` } }),
    });
    const events = await collectEvents(model.stream(baseRequest(), new AbortController().signal));
    const recorded = server.requests.at(-1);
    expect(recorded?.path).toBe('/v1/messages');
    expect(JSON.stringify(recorded?.body)).not.toContain(apiKey);
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'auth',
          message: 'anthropic (anthropic-messages) HTTP 401 authentication_error: invalid x-api-key [redacted]',
          status: 401,
          midStream: false,
        },
      },
    ]);
  });
});
