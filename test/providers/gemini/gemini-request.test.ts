import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import type { AssistantMessage, ModelMessage } from '../../../src/providers/message.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { accumulateMessage, collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type RecordedRequest, type ReplayServer } from '../../support/replay-server.js';

const apiKey = 'AIzaSyRequestShapeTestKey0000000000000';
const textOnly = loadFixture('gemini', 'text-only');

function baseRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gemini-2.5-flash',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    tools: [],
    ...overrides,
  };
}

describe('gemini request shape', () => {
  let server: ReplayServer;
  let model: GeminiModel;

  beforeAll(async () => {
    server = await startReplayServer();
    model = new GeminiModel({ provider: 'gemini', modelId: 'gemini-2.5-flash', baseUrl: `${server.url}/`, apiKey, headers: { 'x-goog-user-project': 'agentd-test' } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function send(request: ModelRequest): Promise<RecordedRequest> {
    server.enqueue({ body: textOnly.bytes });
    const events = await collectEvents(model.stream(request, new AbortController().signal));
    expect(events.at(-1)?.type).toBe('stop');
    const recorded = server.requests.at(-1);
    if (recorded === undefined) throw new Error('the server recorded no request');
    return recorded;
  }

  function body(recorded: RecordedRequest): Record<string, unknown> {
    return recorded.body as Record<string, unknown>;
  }

  /** Stream a transcript, fold it into the message the loop would store (reasoning stamped with the protocol). */
  async function streamedTurn(scenario: string): Promise<AssistantMessage> {
    server.enqueue({ body: loadFixture('gemini', scenario).bytes, chunking: { random: 9 } });
    const parsed = accumulateMessage(await collectEvents(model.stream(baseRequest(), new AbortController().signal)));
    return {
      role: 'assistant',
      content: parsed.content.map((part) => (part.type === 'thinking' ? { ...part, providerProtocol: model.protocol } : part)),
    };
  }

  it('POSTs streamGenerateContent with alt=sse and the key only in the x-goog-api-key header', async () => {
    const recorded = await send(baseRequest({ model: 'models/gemini-2.5-flash' }));
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(recorded.path).not.toContain(apiKey);
    expect(recorded.path).not.toContain('key=');
    expect(recorded.headers['x-goog-api-key']).toBe(apiKey);
    expect(recorded.headers['content-type']).toBe('application/json');
    expect(recorded.headers['x-goog-user-project']).toBe('agentd-test');
    expect(recorded.headers.authorization).toBeUndefined();
    expect(body(recorded)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('sends the system prompt as systemInstruction and the limits in generationConfig', async () => {
    const sent = body(
      await send(baseRequest({ system: [{ text: 'Role.', cacheBoundary: true }, { text: '' }, { text: 'Date.' }], maxTokens: 2048, temperature: 0.2, stopSequences: ['END'] })),
    );
    expect(sent.systemInstruction).toEqual({ parts: [{ text: 'Role.' }, { text: 'Date.' }] });
    expect(sent.generationConfig).toEqual({ maxOutputTokens: 2048, temperature: 0.2, stopSequences: ['END'] });
  });

  it('declares tools with parametersJsonSchema, dropping $schema', async () => {
    const schema = { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false };
    const sent = body(
      await send(
        baseRequest({
          tools: [
            { name: 'read', description: 'Read a file', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema } },
            { name: 'now', description: 'Current time', inputSchema: { properties: {} } },
          ],
        }),
      ),
    );
    expect(sent.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'read', description: 'Read a file', parametersJsonSchema: schema },
          { name: 'now', description: 'Current time', parametersJsonSchema: { type: 'object', properties: {} } },
        ],
      },
    ]);
  });

  it('maps thinking levels to thinkingConfig', async () => {
    expect(body(await send(baseRequest({ thinking: 'medium' }))).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 10_000, includeThoughts: true } });
    expect(body(await send(baseRequest({ thinking: 'high', thinkingBudgets: { high: -1 } }))).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: -1, includeThoughts: true },
    });
    expect(body(await send(baseRequest({ thinking: 'off' }))).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(body(await send(baseRequest())).generationConfig).toBeUndefined();
  });

  it('refuses an invalid thinking budget with a bad_request error and sends nothing', async () => {
    const before = server.requests.length;
    const events = await collectEvents(model.stream(baseRequest({ thinking: 'low', thinkingBudgets: { low: 1.5 } }), new AbortController().signal));
    expect(toComparableEvents(events)).toEqual([
      {
        type: 'error',
        error: {
          kind: 'bad_request',
          message: 'gemini (gemini): thinkingBudgets.low is 1.5, but Gemini needs an integer thinking budget (-1 for dynamic, 0 for off, or a token count); fix the value',
          midStream: false,
        },
      },
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('sends tool results as functionResponse parts of a user turn, images as inlineData', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Look.' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running both.' },
          { type: 'tool_call', id: 'call_a', name: 'bash', args: { cmd: 'ls' } },
          { type: 'tool_call', id: 'call_b', name: 'screenshot', args: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_a', toolName: 'bash', content: [{ type: 'text', text: 'exit 2' }, { type: 'text', text: 'no such dir' }], isError: true },
          { type: 'tool_result', toolCallId: 'call_b', toolName: 'screenshot', content: [{ type: 'image', data: '/9j/4AAQ', mimeType: 'image/jpeg' }] },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Hurry.' }] },
    ];
    expect(body(await send(baseRequest({ messages }))).contents).toEqual([
      { role: 'user', parts: [{ text: 'Look.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'model', parts: [{ text: 'Running both.' }, { functionCall: { name: 'bash', args: { cmd: 'ls' } } }, { functionCall: { name: 'screenshot', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'bash', response: { error: 'exit 2\nno such dir' } } },
          { functionResponse: { name: 'screenshot', response: { output: '' } } },
          { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
          { text: 'Hurry.' },
        ],
      },
    ]);
  });

  it('sends a function call thoughtSignature back on the same functionCall part', async () => {
    const turn = await streamedTurn('function-call-with-thought-signature');
    const call = turn.content[0];
    if (call?.type !== 'tool_call') throw new Error('expected a tool call');
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Read main.ts' }] },
      turn,
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: 'export {}' }] }] },
    ];
    expect(body(await send(baseRequest({ messages }))).contents).toEqual([
      { role: 'user', parts: [{ text: 'Read main.ts' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'read_file', args: { path: 'src/main.ts', startLine: 1, endLine: 40 } },
            thoughtSignature: 'CikB0e2Kb9lh7BTzq3mtHvCt0N7KOfGOpxMSN2kB3vK7CHW6CeyVbg7vXwpeAdHtim8AXPdbxMXlZg8kRqq==',
          },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'export {}' } } }] },
    ]);
  });

  it('keeps the signature on the first of parallel calls only, and echoes vendor call ids', async () => {
    const parallel = await streamedTurn('parallel-function-calls');
    const withId = await streamedTurn('function-call-with-id');
    const sent = body(await send(baseRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Go' }] }, parallel] }))).contents as Array<{
      parts: unknown[];
    }>;
    expect(sent[1]?.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiIB0e2Kb3dRh6ZdVq8dL4ZPb5zWqU7rX0cF1mB9sY2kJ3Q=' },
      { functionCall: { name: 'get_weather', args: { city: 'Tōkyō' } } },
      { functionCall: { name: 'get_time', args: { zone: 'Asia/Tokyo' } } },
    ]);
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
      withId,
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'r7x2k9qa', toolName: 'get_time', content: [{ type: 'text', text: '12:00' }] }] },
    ];
    expect((body(await send(baseRequest({ messages }))).contents as unknown[]).slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'r7x2k9qa', name: 'get_time', args: { zone: 'Europe/Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'r7x2k9qa', name: 'get_time', response: { output: '12:00' } } }] },
    ]);
  });

  it('does not send thought text back, and puts text and empty-part signatures where they sat', async () => {
    const thoughts = await streamedTurn('thought-parts');
    const textSigned = await streamedTurn('text-part-signature');
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Multiply.' }] },
      thoughts,
      { role: 'user', content: [{ type: 'text', text: 'And?' }] },
      textSigned,
      { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
    ];
    const sent = body(await send(baseRequest({ messages }))).contents as Array<{ parts: unknown[] }>;
    expect(sent[1]?.parts).toEqual([
      { text: '27 × 453 = 12,231.' },
      {
        text: '',
        thoughtSignature:
          'CiQB0e2Kb7SMJvC4ACw9DgPZAEP3xGv0lKkz9wYdLzLTE2dN3YUKZgHR7YpvNk+rPIGA8WvGnCFyLGf1OsjJ0Wc0e5ZjKU5Ar8bGDtgfRi/v5NqHRdzwMpXgKVPpLJcJYq6u',
      },
    ]);
    expect(sent[3]?.parts).toEqual([
      { text: 'The answer is 42.', thoughtSignature: 'EuIOCt8OAdHtim9rN0sTw0Jx3fdVyZxyGUjiFhVwb0aeFsIQxnQ8tC5yXq2oN5OYj1EbEzMoYgq3RfjZ==' },
    ]);
  });

  it('replays signatures that sat on thought parts or bare parts on the same kind of part, and drops foreign reasoning', async () => {
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Claude reasoning', signature: 'EqQBanthropic', providerProtocol: 'anthropic-messages' },
        { type: 'thinking', text: 'Planning the call.', signature: 'sig-thought', providerProtocol: 'gemini', providerData: { geminiPart: 'thought' } },
        { type: 'thinking', text: 'no signature', providerProtocol: 'gemini' },
        { type: 'text', text: 'Done.' },
        { type: 'thinking', text: '', signature: 'sig-bare', providerProtocol: 'gemini', providerData: { geminiPart: 'bare' } },
      ],
    };
    const sent = body(await send(baseRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }, assistant] }))).contents as Array<{
      parts: unknown[];
    }>;
    expect(sent[1]?.parts).toEqual([{ text: '', thought: true, thoughtSignature: 'sig-thought' }, { text: 'Done.' }, { thoughtSignature: 'sig-bare' }]);
  });

  it('keeps the API key out of error messages', async () => {
    server.enqueue({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 400, message: `API key not valid: ${apiKey}`, status: 'INVALID_ARGUMENT' } }),
    });
    const events = await collectEvents(model.stream(baseRequest(), new AbortController().signal));
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'auth', message: 'gemini (gemini) HTTP 400 INVALID_ARGUMENT: API key not valid: [redacted]', status: 400, midStream: false } },
    ]);
  });
});
