import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const request = { model: 'command-a-03-2025', system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }], tools: [] };

function fixture(scenario: string) {
  const { bytes, expected } = loadFixture('cohere', scenario);
  return { body: bytes, ...(expected.status !== undefined ? { status: expected.status } : {}), ...(expected.headers !== undefined ? { headers: expected.headers } : {}) };
}

describe('cohere credentials and errors through the registry', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('without a key, says in one line which variables to set', () => {
    const registry = createProviderRegistry({ config: {}, env: {} });
    expect(() => registry.resolve('cohere/command-a-03-2025')).toThrow(
      'provider "cohere" needs an API key: set the COHERE_API_KEY or CO_API_KEY environment variable, or providers.cohere.apiKey (or providers.cohere.apiKeyEnv) in config.json',
    );
    expect(registry.isConfigured('cohere')).toBe(false);
  });

  it('reads CO_API_KEY, the official SDKs\' variable, and CO_API_URL for another endpoint', async () => {
    const registry = createProviderRegistry({ config: {}, env: { CO_API_KEY: 'co-sdk-key-1111', CO_API_URL: server.url } });
    server.enqueue(fixture('text'));
    const events = await collectEvents(registry.resolve('cohere/command-a-03-2025').stream(request, new AbortController().signal));
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'COMPLETE' } });
    expect(server.requests.at(-1)?.path).toBe('/v2/chat');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer co-sdk-key-1111');
  });

  it('a 401 is one line naming the variable the key came from', async () => {
    const registry = createProviderRegistry({ config: {}, env: { COHERE_API_KEY: 'co-bad-key-2222', CO_API_URL: server.url } });
    server.enqueue(fixture('http-401-invalid-api-token'));
    const events = await collectEvents(registry.resolve('cohere/command-a-03-2025').stream(request, new AbortController().signal));
    expect(events).toHaveLength(1);
    const last = events[0];
    if (last?.type !== 'error') throw new Error('expected an error');
    expect(last.error.kind).toBe('auth');
    expect(last.error.message).toBe(
      `cohere (cohere) HTTP 401: invalid api token — the API key came from the COHERE_API_KEY environment variable: check that it is a valid key for ${server.url} (from the CO_API_URL environment variable)`,
    );
    expect(last.error.message).not.toContain('\n');
    expect(last.error.message).not.toContain('co-bad-key-2222');
  });

  it('a 429 is throttling: retried with backoff, then the answer', async () => {
    const registry = createProviderRegistry({ config: { providers: { cohere: { maxRetries: 2, maxRetryDelayMs: 10 } } }, env: { COHERE_API_KEY: 'co-key-3333', CO_API_URL: server.url } });
    server.enqueue(fixture('http-429-rate-limit'));
    server.enqueue(fixture('text'));
    const events = await collectEvents(registry.resolve('cohere/command-a-03-2025').stream(request, new AbortController().signal));
    const retry = events.find((e) => e.type === 'retry');
    if (retry?.type !== 'retry') throw new Error('expected a retry');
    expect(retry.error.kind).toBe('rate_limit');
    expect(retry.error.retryable).toBe(true);
    expect(retry.error.message).toBe('cohere (cohere) HTTP 429: You are past the per minute request limit, please wait and try again later.');
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('The capital of France is Paris.');
    expect(events.at(-1)?.type).toBe('stop');
  });

  it('a 400 carries Cohere\'s own message and is not retried', async () => {
    const registry = createProviderRegistry({ config: { providers: { cohere: { maxRetries: 2, maxRetryDelayMs: 10 } } }, env: { COHERE_API_KEY: 'co-key-4444', CO_API_URL: server.url } });
    const before = server.requests.length;
    server.enqueue(fixture('http-400-bad-request'));
    const events = await collectEvents(registry.resolve('cohere/command-a-03-2025').stream(request, new AbortController().signal));
    expect(server.requests.length - before).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'bad_request', message: 'cohere (cohere) HTTP 400: invalid request: temperature must be between 0 and 1.0 inclusive.' } });
  });

  it('checks the key without spending tokens: lists the chat models', async () => {
    const registry = createProviderRegistry({ config: {}, env: { COHERE_API_KEY: 'co-key-6666', CO_API_URL: server.url } });
    server.enqueue({ body: readFileSync(new URL('../../fixtures/cohere/list-models.json', import.meta.url)), headers: { 'content-type': 'application/json' } });
    expect(await registry.listModels('cohere', 5_000)).toEqual({ kind: 'ok', protocol: 'cohere', url: `${server.url}/v1/models?endpoint=chat`, models: ['command-a-03-2025', 'command-r7b-12-2024'] });
    expect(server.requests.at(-1)?.method).toBe('GET');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer co-key-6666');
  });

  it('a cohere provider of its own needs only type and key', async () => {
    const registry = createProviderRegistry({ config: { providers: { 'co-eu': { type: 'cohere', baseUrl: server.url, apiKey: 'co-config-key-5555' } } }, env: {} });
    server.enqueue(fixture('text'));
    const events = await collectEvents(registry.resolve('co-eu/command-r-08-2024').stream(request, new AbortController().signal));
    expect(events.at(-1)?.type).toBe('stop');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer co-config-key-5555');
  });
});
