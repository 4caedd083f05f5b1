import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/provider-config-schema.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { LanguageModel } from '../../../src/providers/language-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { collectEvents } from '../../support/collect-events.js';
import { loadFixture } from '../../support/load-fixture.js';
import { toComparableEvents } from '../../support/normalize-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

// Azure OpenAI is a configuration of the two OpenAI protocols, never a protocol of its
// own (https://learn.microsoft.com/azure/ai-foundry/openai/reference): these tests go
// from config.json-shaped settings through the registry to the bytes Azure would see.

const request: ModelRequest = { model: '', system: [{ text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

function registry(providers: Record<string, ProviderConfig>, env: NodeJS.ProcessEnv = {}) {
  return createProviderRegistry({ config: { providers }, env, breaker: new CircuitBreaker() });
}

async function roundTrip(model: LanguageModel, protocol: 'openai-chat' | 'openai-responses', scenario: string) {
  const fixture = loadFixture(protocol, scenario);
  server.enqueue({ body: fixture.bytes });
  const events = toComparableEvents(await collectEvents(model.stream(request, new AbortController().signal)));
  const sent = server.requests.at(-1);
  if (sent === undefined) throw new Error('no request recorded');
  return { events, expected: toComparableEvents(fixture.expected.events), sent: { ...sent, body: sent.body as Record<string, unknown> } };
}

describe('Azure OpenAI from config', () => {
  it('Responses on the v1 API: /openai/v1/responses, the deployment as model, the api-key header', async () => {
    const model = registry(
      { azure: { type: 'openai-responses', baseUrl: server.url, azure: { apiVersion: 'v1', deployment: 'gpt5-prod' } } },
      { AZURE_OPENAI_API_KEY: 'azure-key-0001' },
    ).resolve('azure/gpt-5.1');
    const { events, expected, sent } = await roundTrip(model, 'openai-responses', 'text-basic');
    expect(events).toEqual(expected);
    expect(sent.path).toBe('/openai/v1/responses');
    expect(sent.headers['api-key']).toBe('azure-key-0001');
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.body['model']).toBe('gpt5-prod');
  });

  it('Responses with a dated api-version: /openai/responses?api-version=…', async () => {
    const model = registry(
      { azure: { type: 'openai-responses', baseUrl: `${server.url}/`, apiKey: 'azure-key-0002', azure: { apiVersion: '2025-04-01-preview' } } },
    ).resolve('azure/my-deployment');
    const { sent } = await roundTrip(model, 'openai-responses', 'text-basic');
    expect(sent.path).toBe('/openai/responses?api-version=2025-04-01-preview');
    expect(sent.headers['api-key']).toBe('azure-key-0002');
    expect(sent.body['model']).toBe('my-deployment');
  });

  it('a custom provider id with an `azure` block speaks Azure chat, its key from apiKeyEnv and the version from OPENAI_API_VERSION', async () => {
    const reg = registry(
      { 'work-azure': { type: 'openai-chat', baseUrl: server.url, apiKeyEnv: 'WORK_AZURE_KEY', azure: { deployment: 'team 4o' } } },
      { WORK_AZURE_KEY: 'azure-key-0003', OPENAI_API_VERSION: '2024-12-01-preview' },
    );
    expect(reg.isConfigured('work-azure')).toBe(true);
    const { events, expected, sent } = await roundTrip(reg.resolve('work-azure/gpt-4o'), 'openai-chat', 'text-with-usage');
    expect(events).toEqual(expected);
    expect(sent.path).toBe('/openai/deployments/team%204o/chat/completions?api-version=2024-12-01-preview');
    expect(sent.headers['api-key']).toBe('azure-key-0003');
    expect(sent.headers['authorization']).toBeUndefined();
  });

  it('is not configured without an endpoint, and says how to give one', () => {
    const reg = registry({}, { AZURE_OPENAI_API_KEY: 'azure-key-0004' });
    expect(reg.isConfigured('azure')).toBe(false);
    expect(() => reg.resolve('azure/gpt-4o')).toThrow(/providers\.azure\.baseUrl.*AZURE_OPENAI_ENDPOINT/);
  });
});
