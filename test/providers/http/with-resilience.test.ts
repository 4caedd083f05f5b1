import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import { withResilience, type ResilienceOptions } from '../../../src/providers/http/with-resilience.js';
import { OpenAIChatModel } from '../../../src/providers/openai-chat/openai-chat-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { startHangingServer, type HangingServer } from '../../support/hangs-before-headers.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const sse = (...chunks: unknown[]): string => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const delta = (content: string) => ({ id: 'c1', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const finish = { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
const success = sse(delta('Hello'), finish);
const overloaded = { status: 529, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"Overloaded","type":"overloaded_error"}}' };
const unavailable = { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"Service Unavailable"}}' };
const request: ModelRequest = { model: 'primary-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
const okEvents = [
  { type: 'text-delta', text: 'Hello' },
  { type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } },
];

let server: ReplayServer;
let hanging: HangingServer;
let sleeps: number[];
let now: number;
let breaker: CircuitBreaker;
beforeAll(async () => {
  server = await startReplayServer();
  hanging = await startHangingServer();
});
afterAll(async () => {
  await server.close();
  await hanging.close();
});
beforeEach(() => {
  sleeps = [];
  now = 1_000_000;
  breaker = new CircuitBreaker({ now: () => now });
});

function chatModel(provider: string, modelId: string, baseUrl = `${server.url}/v1`, idleMs?: number): OpenAIChatModel {
  return new OpenAIChatModel({ provider, modelId, baseUrl, timeouts: idleMs === undefined ? undefined : { idleMs } });
}

function resilient(options: Partial<ResilienceOptions> = {}, model = chatModel('primary', 'primary-model')) {
  return withResilience(model, {
    breaker,
    random: () => 0.5,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal.aborted) throw new Error('aborted');
    },
    ...options,
  });
}

async function run(model: ReturnType<typeof resilient>, signal = new AbortController().signal): Promise<unknown[]> {
  return toComparableEvents(await collectEvents(model.stream(request, signal)));
}

describe('withResilience', () => {
  it('retries a 429 after the delay the server asked for', async () => {
    const before = server.requests.length;
    server.enqueue({ status: 429, headers: { 'retry-after': '2', 'content-type': 'application/json' }, body: '{"error":{"message":"Rate limit reached","code":"rate_limit_exceeded"}}' });
    server.enqueue({ body: success });
    expect(await run(resilient())).toEqual([
      { type: 'retry', attempt: 1, delayMs: 2000, error: { kind: 'rate_limit', status: 429, retryAfterMs: 2000, midStream: false, message: 'primary 429: Rate limit reached' } },
      ...okEvents,
    ]);
    expect(sleeps).toEqual([2000]);
    expect(server.requests.length - before).toBe(2);
  });

  it('caps the vendor delay at maxRetryDelayMs and backs off exponentially with jitter otherwise', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '120' }, body: '{}' });
    server.enqueue(overloaded);
    server.enqueue(overloaded);
    server.enqueue({ body: success });
    const events = await run(resilient({ maxRetryDelayMs: 5_000 }));
    expect(events.at(-1)).toEqual(okEvents[1]);
    // 120 s capped to 5 s, then random 0.5 × 2 s and 0.5 × 4 s.
    expect(sleeps).toEqual([5000, 1000, 2000]);
  });

  it('retries 529 transparently and then succeeds', async () => {
    server.enqueue(overloaded);
    server.enqueue({ body: success });
    const events = await run(resilient());
    expect(events).toEqual([
      { type: 'retry', attempt: 1, delayMs: 500, error: { kind: 'overloaded', status: 529, midStream: false, message: 'primary 529: Overloaded' } },
      ...okEvents,
    ]);
  });

  it('ends with an error that justifies the fallback when the primary stays overloaded after its retries', async () => {
    for (let i = 0; i < 3; i += 1) server.enqueue(overloaded);
    const start = server.requests.length;
    const events = await run(resilient({ maxRetries: 2 }));
    const error = { kind: 'overloaded', status: 529, midStream: false, message: 'primary 529: Overloaded' };
    expect(events).toEqual([
      { type: 'retry', attempt: 1, delayMs: 500, error },
      { type: 'retry', attempt: 2, delayMs: 1000, error },
      { type: 'error', error },
    ]);
    const bodies = server.requests.slice(start).map((r) => (r.body as { model: string }).model);
    expect(bodies).toEqual(['primary-model', 'primary-model', 'primary-model']);
  });

  it('retries an error frame that arrives before any content', async () => {
    server.enqueue({ body: sse({ error: { message: 'The server had an error', type: 'server_error' } }) });
    server.enqueue({ body: success });
    const events = await run(resilient());
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, error: { kind: 'server', midStream: false } });
    expect(events.slice(1)).toEqual(okEvents);
  });

  it('does not retry an error after the first delta: the content stands and the error is mid-stream', async () => {
    const start = server.requests.length;
    server.enqueue({ body: sse(delta('Hel'), { error: { message: 'The server had an error', type: 'server_error' } }) });
    expect(await run(resilient())).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'error', error: { kind: 'server', midStream: true, message: 'primary: error in stream: The server had an error' } },
    ]);
    expect(server.requests.length - start).toBe(1);
  });

  it('retries a connection reset before any content', async () => {
    server.enqueue({ body: success, resetAfterBytes: 5 });
    server.enqueue({ body: success });
    const events = await run(resilient());
    expect(events[0]).toMatchObject({ type: 'retry', error: { kind: 'network', midStream: false } });
    expect(events.slice(1)).toEqual(okEvents);
  });

  it('retries a stalled response once the idle watchdog gives up', async () => {
    server.enqueue({ body: success, stallAfterBytes: 0 });
    server.enqueue({ body: success });
    const events = await run(resilient({}, chatModel('primary', 'primary-model', `${server.url}/v1`, 100)));
    expect(events[0]).toMatchObject({ type: 'retry', error: { kind: 'timeout' } });
    expect(events.slice(1)).toEqual(okEvents);
  });

  it.each([
    [401, '{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}', 'auth'],
    [400, '{"error":{"message":"maximum context length is 10 tokens","code":"context_length_exceeded"}}', 'context_overflow'],
    [404, '{"error":{"message":"no such model"}}', 'not_found'],
    [413, '{"error":{"message":"too big"}}', 'bad_request'],
    [429, '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}', 'quota'],
  ])('never retries a %i (%s)', async (status, body, kind) => {
    const start = server.requests.length;
    server.enqueue({ status, headers: { 'content-type': 'application/json' }, body });
    const events = await run(resilient());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind, status } });
    expect(server.requests.length - start).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('opens the breaker after 5 consecutive failures, fails fast while open, then half-opens and closes', async () => {
    const model = resilient({ maxRetries: 0 });
    for (let i = 0; i < 4; i += 1) {
      server.enqueue(unavailable);
      expect(await run(model)).toMatchObject([{ type: 'error', error: { kind: 'overloaded', status: 503 } }]);
    }
    server.enqueue(unavailable);
    expect(await run(model)).toMatchObject([
      { type: 'breaker', provider: 'primary', state: 'open' },
      { type: 'error', error: { kind: 'overloaded', status: 503 } },
    ]);
    const start = server.requests.length;
    expect(await run(model)).toEqual([
      { type: 'error', error: { kind: 'overloaded', midStream: false, message: 'primary: circuit open after repeated failures; calls resume in 30 s' } },
    ]);
    expect(server.requests.length).toBe(start);

    now += 30_000;
    server.enqueue({ body: success });
    expect(await run(model)).toEqual([
      { type: 'breaker', provider: 'primary', state: 'half_open' },
      { type: 'text-delta', text: 'Hello' },
      { type: 'breaker', provider: 'primary', state: 'closed' },
      okEvents[1],
    ]);
    expect(breaker.state('primary')).toBe('closed');
  });

  it('re-opens a half-open breaker on the first failure, and ends at once (for the fallback) while open', async () => {
    for (let i = 0; i < 5; i += 1) breaker.recordFailure('primary');
    breaker.takeTransition('primary');
    now += 30_000;
    server.enqueue(unavailable);
    const events = await run(resilient());
    expect(events).toMatchObject([
      { type: 'breaker', state: 'half_open' },
      { type: 'breaker', state: 'open' },
      { type: 'error', error: { kind: 'overloaded', status: 503 } },
    ]);
    expect(sleeps).toEqual([]);
  });

  it('ends at once with aborted when aborted before the response', async () => {
    const controller = new AbortController();
    const model = resilient({}, chatModel('primary', 'primary-model', hanging.url));
    const pending = run(model, controller.signal);
    setTimeout(() => controller.abort(), 30);
    expect(await pending).toMatchObject([{ type: 'error', error: { kind: 'aborted' } }]);
    expect(sleeps).toEqual([]);
  });

  it('ends at once with aborted when aborted mid-stream', async () => {
    server.enqueue({ body: success, stallAfterBytes: success.indexOf('\n\n') + 2 });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of resilient().stream(request, controller.signal)) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(toComparableEvents(events)).toMatchObject([{ type: 'text-delta', text: 'Hello' }, { type: 'error', error: { kind: 'aborted', midStream: true } }]);
  });

  it('ends at once with aborted when aborted while waiting to retry', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '30' }, body: '{}' });
    const controller = new AbortController();
    const model = withResilience(chatModel('primary', 'primary-model'), { breaker });
    const events: StreamEvent[] = [];
    for await (const event of model.stream(request, controller.signal)) {
      events.push(event);
      if (event.type === 'retry') setTimeout(() => controller.abort(), 20);
    }
    expect(toComparableEvents(events)).toMatchObject([{ type: 'retry', delayMs: 30_000 }, { type: 'error', error: { kind: 'aborted' } }]);
  });
});
