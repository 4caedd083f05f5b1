import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyOpenAIChatError, classifyOpenAIChatStreamError, isContextOverflowMessage } from '../../../src/providers/openai-chat/openai-chat-error.js';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { startHangingServer, type HangingServer } from '../../support/hangs-before-headers.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const context = { provider: 'p', model: 'm' };
const json = (error: unknown): string => JSON.stringify({ error });

describe('classifyOpenAIChatError', () => {
  const cases: Array<[number, string, string]> = [
    [401, json({ message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' }), 'auth'],
    [403, json({ message: 'Country not supported', type: 'request_forbidden' }), 'auth'],
    [404, json({ message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' }), 'not_found'],
    [400, json({ message: 'Invalid value for temperature', type: 'invalid_request_error' }), 'bad_request'],
    [400, json({ message: 'x', type: 'invalid_request_error', code: 'context_length_exceeded' }), 'context_overflow'],
    [400, JSON.stringify({ error: 'the request exceeds the available context size, try increasing it' }), 'context_overflow'],
    [400, JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens.", type: 'BadRequestError', code: 400 }), 'context_overflow'],
    [413, json({ message: 'Request too large', type: 'invalid_request_error' }), 'bad_request'],
    [422, JSON.stringify({ detail: 'Prompt is too long for this model' }), 'context_overflow'],
    [402, json({ message: 'Insufficient credits', code: 402 }), 'quota'],
    [429, json({ message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' }), 'rate_limit'],
    [429, json({ message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' }), 'quota'],
    [408, 'timeout', 'timeout'],
    [409, json({ message: 'conflict' }), 'server'],
    [500, json({ message: 'The server had an error', type: 'server_error' }), 'server'],
    [502, '<html>Bad Gateway</html>', 'server'],
    [503, json({ message: 'The engine is currently overloaded' }), 'overloaded'],
    [529, json({ message: 'Overloaded' }), 'overloaded'],
  ];

  it.each(cases)('%i %s → %s', (status, body, kind) => {
    const error = classifyOpenAIChatError(context, status, body, new Headers());
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.provider).toBe('p');
    expect(error.model).toBe('m');
  });

  it('puts the vendor message in the error and reads retry-after for retryable kinds', () => {
    const error = classifyOpenAIChatError(context, 429, json({ message: 'slow down', code: 'rate_limit_exceeded' }), new Headers({ 'retry-after-ms': '1500' }));
    expect(error.message).toBe('p 429: slow down');
    expect(error.retryAfterMs).toBe(1500);
    expect(classifyOpenAIChatError(context, 401, '', new Headers({ 'retry-after': '3' })).retryAfterMs).toBeUndefined();
    expect(classifyOpenAIChatError(context, 500, '', new Headers()).message).toBe('p 500: (empty response body)');
  });

  it('classifies in-stream errors by numeric code or by type', () => {
    expect(classifyOpenAIChatStreamError(context, { message: 'x', code: 429 }, false).kind).toBe('rate_limit');
    expect(classifyOpenAIChatStreamError(context, { message: 'busy', type: 'overloaded_error' }, true)).toMatchObject({ kind: 'overloaded', midStream: true });
    expect(classifyOpenAIChatStreamError(context, { message: 'x', code: 'rate_limit_exceeded' }, false).kind).toBe('rate_limit');
    expect(classifyOpenAIChatStreamError(context, 'plain failure', false).kind).toBe('server');
  });

  it('recognises context overflow wording from several servers', () => {
    for (const text of [
      "This model's maximum context length is 8192 tokens",
      'prompt is too long: 210000 tokens > 200000 maximum',
      'Input is too long for requested model.',
      'Please reduce the length of the messages or completion.',
      'too many tokens in request',
    ]) {
      expect(isContextOverflowMessage(text), text).toBe(true);
    }
    expect(isContextOverflowMessage('Invalid value for temperature')).toBe(false);
  });
});

describe('OpenAIChatModel failures', () => {
  let server: ReplayServer;
  let hanging: HangingServer;
  beforeAll(async () => {
    server = await startReplayServer();
    hanging = await startHangingServer();
  });
  afterAll(async () => {
    await server.close();
    await hanging.close();
  });

  const request: ModelRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
  const firstDelta = 'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n';
  const model = (baseUrl: string, idleMs?: number): OpenAIChatModel =>
    new OpenAIChatModel({ provider: 'p', modelId: 'm', baseUrl, apiKey: 'sk-secret-value-1234', timeouts: idleMs === undefined ? undefined : { idleMs } });

  it('ends with a classified error for a non-2xx answer, never echoing the key', async () => {
    server.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: json({ message: 'Incorrect API key provided: sk-secret-value-1234' }) });
    const events = await collectEvents(model(server.url).stream(request, new AbortController().signal));
    expect(toComparableEvents(events)).toEqual([
      { type: 'error', error: { kind: 'auth', status: 401, midStream: false, message: 'p 401: Incorrect API key provided: [redacted]' } },
    ]);
  });

  it('reports a reset before any content as a network error, not mid-stream', async () => {
    server.enqueue({ body: firstDelta, resetAfterBytes: 10 });
    const events = await collectEvents(model(server.url).stream(request, new AbortController().signal));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'network', midStream: false } });
  });

  it('reports a reset after the first delta as a mid-stream network error, keeping the delta', async () => {
    server.enqueue({ body: `${firstDelta}${firstDelta}`, resetAfterBytes: firstDelta.length + 5 });
    const events = await collectEvents(model(server.url).stream(request, new AbortController().signal));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Hel' });
    expect(events[1]).toMatchObject({ type: 'error', error: { kind: 'network', midStream: true } });
    expect(events).toHaveLength(2);
  });

  it('ends a stalled stream with a timeout from the idle watchdog', async () => {
    server.enqueue({ body: `${firstDelta}${firstDelta}`, stallAfterBytes: firstDelta.length });
    const events = await collectEvents(model(server.url, 100).stream(request, new AbortController().signal));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Hel' });
    expect(events[1]).toMatchObject({ type: 'error', error: { kind: 'timeout', midStream: true } });
  });

  it('ends at once with aborted when aborted before the response', async () => {
    const controller = new AbortController();
    const pending = collectEvents(model(hanging.url).stream(request, controller.signal));
    setTimeout(() => controller.abort(), 30);
    const events = await pending;
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'aborted' }) }]);
  });

  it('ends at once with aborted when aborted mid-stream', async () => {
    server.enqueue({ body: `${firstDelta}${firstDelta}`, stallAfterBytes: firstDelta.length });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of model(server.url).stream(request, controller.signal)) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }, { type: 'error', error: expect.objectContaining({ kind: 'aborted', midStream: true }) }]);
  });

  it('ends with aborted for a signal aborted before the call', async () => {
    const events = await collectEvents(model(server.url).stream(request, AbortSignal.abort()));
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind: 'aborted' }) }]);
  });
});
