import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/provider-config-schema.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import type { StreamEvent } from '../../../src/providers/stream-event.js';
import { collectEvents } from '../../support/collect-events.js';
import { freePort } from '../../support/free-port.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
const unauthorized = JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
const noModel = JSON.stringify({ error: { message: 'The model `gpt-nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' } });

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

/** The one failure the user sees for `ref`, through the registry as the daemon builds it (no retries). */
async function failure(ref: string, providers: Record<string, ProviderConfig>, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const model = createProviderRegistry({ config: { providers }, env, breaker: new CircuitBreaker() }).resolve(ref);
  const events = await collectEvents(model.stream(request, new AbortController().signal));
  const last = events.at(-1) as Extract<StreamEvent, { type: 'error' }>;
  expect(last.type).toBe('error');
  return last.error.message;
}

describe('provider failures name the setting to check', () => {
  it('a 401 names the environment variable the key came from', async () => {
    server.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: unauthorized });
    const message = await failure('openai/gpt-4o', {}, { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-wrong-but-long' });
    expect(message).toBe(
      `openai 401: Incorrect API key provided — the API key came from the OPENAI_API_KEY environment variable: check that it is a valid key for ${server.url}/v1 (from the OPENAI_BASE_URL environment variable)`,
    );
  });

  it('a 401 names apiKey in config when the key came from there, and the variables to set when none was sent', async () => {
    server.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: unauthorized });
    const fromConfig = await failure('local/tiny', { local: { type: 'openai-chat', baseUrl: `${server.url}/v1`, apiKey: 'sk-in-config-file', maxRetries: 0 } });
    expect(fromConfig).toContain('— the API key came from providers.local.apiKey in config.json: check that it is a valid key for');
    expect(fromConfig).toContain('(from providers.local.baseUrl in config.json)');

    server.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: unauthorized });
    const none = await failure('local/tiny', { local: { type: 'openai-chat', baseUrl: `${server.url}/v1`, apiKeyEnv: 'MY_LOCAL_KEY' } });
    expect(none).toContain('— no API key was sent: set MY_LOCAL_KEY, or providers.local.apiKeyEnv or apiKey in config.json');
  });

  it('connection refused on a closed port suggests checking the base URL and says where it came from', async () => {
    const port = await freePort();
    const message = await failure('local/tiny', { local: { type: 'openai-chat', baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 } });
    expect(message).toMatch(/ECONNREFUSED/);
    expect(message).toContain(
      `— nothing answered at http://127.0.0.1:${port}/v1 (from providers.local.baseUrl in config.json): check the base URL and that the server is running`,
    );
  });

  it('a 404 points at agentd models and the base URL', async () => {
    server.enqueue({ status: 404, headers: { 'content-type': 'application/json' }, body: noModel });
    const message = await failure('local/gpt-nope', { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } });
    expect(message).toBe(
      `local 404: The model \`gpt-nope\` does not exist — check the model id "gpt-nope" (agentd models --provider local lists the known ones) and the base URL ${server.url}/v1 (from providers.local.baseUrl in config.json)`,
    );
  });

  it('leaves failures the settings do not explain as they were', async () => {
    server.enqueue({ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'bad tools' } }) });
    expect(await failure('local/tiny', { local: { type: 'openai-chat', baseUrl: `${server.url}/v1` } })).toBe('local 400: bad tools');
  });
});
