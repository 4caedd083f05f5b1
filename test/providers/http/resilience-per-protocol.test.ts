import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicMessagesModel } from '../../../src/providers/anthropic-messages/anthropic-messages-model.js';
import { BedrockModel } from '../../../src/providers/bedrock/bedrock-model.js';
import { CohereModel } from '../../../src/providers/cohere/cohere-model.js';
import { GeminiModel } from '../../../src/providers/gemini/gemini-model.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import { justifiesFallback, withResilience, type ResilienceOptions } from '../../../src/providers/http/with-resilience.js';
import type { ProviderError } from '../../../src/providers/provider-error.js';
import type { LanguageModel } from '../../../src/providers/language-model.js';
import { OpenAIResponsesModel } from '../../../src/providers/openai-responses/openai-responses-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture, type Fixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// The fault tests of the issue, end to end for the native protocols (Cohere and Bedrock among them): the vendors' own
// error transcripts (test/fixtures) served over loopback to the real model classes,
// wrapped in withResilience as the registry wraps them. with-resilience.test.ts covers
// the same rules on openai-chat; this file shows each vendor's signals reach them.

type NativeProtocol = 'anthropic-messages' | 'openai-responses' | 'gemini' | 'cohere' | 'bedrock';

let server: ReplayServer;
let sleeps: number[];
let breaker: CircuitBreaker;

beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  sleeps = [];
  breaker = new CircuitBreaker();
});

/** The provider ids and model ids the fixtures' messages were written with. */
const models: Record<NativeProtocol, () => LanguageModel> = {
  'anthropic-messages': () =>
    new AnthropicMessagesModel({ provider: 'anthropic', modelId: 'claude-sonnet-4-5-20250929', baseUrl: server.url, apiKey: 'sk-ant-test-key-0000' }),
  'openai-responses': () => new OpenAIResponsesModel({ provider: 'openai', modelId: 'gpt-5.1', baseUrl: `${server.url}/v1`, apiKey: 'sk-test-key-123456' }),
  gemini: () => new GeminiModel({ provider: 'gemini', modelId: 'gemini-2.5-flash', baseUrl: server.url, apiKey: 'AIzaSyReplayTestKey000000000000000000' }),
  cohere: () => new CohereModel({ provider: 'cohere', modelId: 'command-a-03-2025', baseUrl: server.url, apiKey: 'co-test-key-0000' }),
  bedrock: () =>
    new BedrockModel({
      provider: 'bedrock',
      modelId: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
      baseUrl: server.url,
      identity: () => ({ region: 'us-east-1', credentials: { kind: 'sigv4', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', from: 'the test' } }),
    }),
};

/** Each protocol's plain successful answer, served after a retried failure. */
const success: Record<NativeProtocol, string> = {
  'anthropic-messages': 'text-only',
  'openai-responses': 'text-basic',
  gemini: 'text-only',
  cohere: 'text',
  bedrock: 'text-with-reasoning',
};

const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [] };

function resilient(protocol: NativeProtocol, options: Partial<ResilienceOptions> = {}): LanguageModel {
  return withResilience(models[protocol](), {
    breaker,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
}

/** Queue a fixture's exact response (status, headers, bytes) for the next request. */
function serve(protocol: NativeProtocol, scenario: string): Fixture {
  const fixture = loadFixture(protocol, scenario);
  server.enqueue({ status: fixture.expected.status ?? 200, headers: fixture.expected.headers ?? { 'content-type': 'text/event-stream' }, body: fixture.bytes });
  return fixture;
}

async function run(model: LanguageModel): Promise<{ events: unknown[]; requests: number }> {
  const before = server.requests.length;
  const events = toComparableEvents(await collectEvents(model.stream(request, new AbortController().signal)));
  return { events, requests: server.requests.length - before };
}

/** The one error event a fixture expects. */
function expectedError(fixture: Fixture): Record<string, unknown> {
  const [only] = fixture.expected.events as Array<{ type: string; error: Record<string, unknown> }>;
  if (only?.type !== 'error') throw new Error('fixture does not end in a single error event');
  return only.error;
}

describe('retries honour each vendor\'s delay, then the stream succeeds', () => {
  it.each([
    ['gemini', 'http-429-retry-info', 17_000], // google.rpc.RetryInfo retryDelay "17s" in the body
    ['anthropic-messages', 'http-429-rate-limit-error', 12_000], // retry-after: 12
    ['openai-responses', 'http-429-rate-limit-retry-after', 1_500], // retry-after-ms wins over retry-after
    ['anthropic-messages', 'http-529-overloaded-error', 500], // no delay given: full jitter, 0.5 × the first 1 s step
    ['gemini', 'http-503-unavailable', 500],
    ['cohere', 'http-429-rate-limit', 500], // Cohere names no delay: full jitter
    ['cohere', 'http-503-service-unavailable', 500],
  ] as const)('%s %s waits %i ms', async (protocol, scenario, delayMs) => {
    const failure = serve(protocol, scenario);
    const answer = serve(protocol, success[protocol]);
    const { events, requests } = await run(resilient(protocol));
    expect(events).toEqual([{ type: 'retry', attempt: 1, delayMs, error: expectedError(failure) }, ...toComparableEvents(answer.expected.events)]);
    expect(sleeps).toEqual([delayMs]);
    expect(requests).toBe(2);
  });

  it('caps a RetryInfo delay at maxRetryDelayMs', async () => {
    serve('gemini', 'http-429-retry-info');
    serve('gemini', 'text-only');
    await run(resilient('gemini', { maxRetryDelayMs: 5_000 }));
    expect(sleeps).toEqual([5_000]);
  });
});

describe('never retried, never handed to the fallback', () => {
  it.each([
    ['gemini', 'http-429-daily-quota', 'quota'],
    ['openai-responses', 'http-429-insufficient-quota', 'quota'],
    ['anthropic-messages', 'http-401-authentication-error', 'auth'],
    ['openai-responses', 'http-401-invalid-api-key', 'auth'],
    ['gemini', 'http-400-api-key-invalid', 'auth'],
    ['anthropic-messages', 'http-400-prompt-too-long', 'context_overflow'],
    ['gemini', 'http-400-token-count-exceeded', 'context_overflow'],
    ['openai-responses', 'http-400-context-length-exceeded', 'context_overflow'],
    ['anthropic-messages', 'http-413-request-too-large', 'context_overflow'], // 413 request_too_large: the prompt is too big
    ['gemini', 'http-404-not-found', 'not_found'],
    ['cohere', 'http-401-invalid-api-token', 'auth'],
    ['cohere', 'http-400-too-many-tokens', 'context_overflow'],
  ] as const)('%s %s (%s)', async (protocol, scenario, kind) => {
    const fixture = serve(protocol, scenario);
    const { events, requests } = await run(resilient(protocol));
    expect(events).toEqual(toComparableEvents(fixture.expected.events));
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ kind }) }]);
    // Not a reason to try another model: the loop gives it to no fallback.
    expect(justifiesFallback((events[0] as { error: ProviderError }).error)).toBe(false);
    expect(requests).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe('an error event inside a 200 stream', () => {
  it('before any content: retried transparently (Anthropic `error` event)', async () => {
    const failure = serve('anthropic-messages', 'api-error-event-before-content');
    const answer = serve('anthropic-messages', 'text-only');
    const { events, requests } = await run(resilient('anthropic-messages'));
    expect(events).toEqual([{ type: 'retry', attempt: 1, delayMs: 500, error: expectedError(failure) }, ...toComparableEvents(answer.expected.events)]);
    expect(requests).toBe(2);
  });

  it.each([
    ['anthropic-messages', 'error-event-mid-stream'], // overloaded_error after the first text delta
    ['gemini', 'error-chunk-mid-stream'], // UNAVAILABLE error chunk after "Partial"
    ['openai-responses', 'response-failed-mid-stream'], // response.failed after text
    ['cohere', 'finish-reason-error'], // finish_reason ERROR after text
    ['bedrock', 'throttled-mid-stream'], // a throttlingException frame after text
  ] as const)('after the first delta: %s %s keeps the partial content and surfaces a mid-stream error', async (protocol, scenario) => {
    const fixture = serve(protocol, scenario);
    const { events, requests } = await run(resilient(protocol));
    expect(events).toEqual(toComparableEvents(fixture.expected.events));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { midStream: true } });
    expect(justifiesFallback((events.at(-1) as { error: ProviderError }).error)).toBe(false);
    expect(requests).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe('a primary that stays unavailable', () => {
  it('an Anthropic primary overloaded through its retries ends with an error that justifies the fallback (the loop makes that call)', async () => {
    serve('anthropic-messages', 'http-529-overloaded-error');
    const last = serve('anthropic-messages', 'http-529-overloaded-error');
    const { events, requests } = await run(resilient('anthropic-messages', { maxRetries: 1 }));
    expect(events).toEqual([
      { type: 'retry', attempt: 1, delayMs: 500, error: expectedError(last) },
      { type: 'error', error: expectedError(last) },
    ]);
    expect(justifiesFallback((events[1] as { error: ProviderError }).error)).toBe(true);
    expect(requests).toBe(2);
  });
});
