import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkProvidersReach } from '../../../src/cli/doctor/check-providers.js';
import { AgentdConfigSchema, type AgentdConfig } from '../../../src/config/config-schema.js';
import { freePort } from '../../support/free-port.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { makeTempHome, type TempHome } from './temp-home.js';

let t: TempHome;
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

const json = { 'content-type': 'application/json' };

function reach(config: unknown, env: NodeJS.ProcessEnv = {}) {
  return checkProvidersReach({ config: AgentdConfigSchema.parse(config) as AgentdConfig, env, paths: t.paths, timeoutMs: 2_000 });
}

describe('agentd doctor reaches each provider through its model list', () => {
  it('an OpenAI-compatible server: GET /v1/models with the key, the wire it speaks and how many models it lists', async () => {
    server.enqueue({ headers: json, body: JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3' }] }) });
    const checks = await reach({}, { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-local-key-1234' });
    expect(checks).toEqual([
      {
        id: 'provider:openai',
        title: 'provider openai',
        status: 'ok',
        detail: `openai-responses at ${server.url}/v1 (from OPENAI_BASE_URL); API key from $OPENAI_API_KEY; reached over openai-chat: ${server.url}/v1/models lists 2 models`,
      },
    ]);
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', headers: { authorization: 'Bearer sk-local-key-1234' } });
  });

  it("Anthropic's /v1/models and Gemini's /v1beta/models, with each vendor's key header", async () => {
    server.enqueue({ headers: json, body: JSON.stringify({ data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false }) });
    server.enqueue({ headers: json, body: JSON.stringify({ models: [{ name: 'models/gemini-2.5-flash' }] }) });
    const checks = await reach(
      { providers: { anthropic: { baseUrl: server.url }, google: { baseUrl: server.url } } },
      { ANTHROPIC_API_KEY: 'sk-ant-key-1234', GEMINI_API_KEY: 'gem-key-1234' },
    );
    expect(checks.map((c) => [c.status, c.detail.split('; ').at(-1)])).toEqual([
      ['ok', `reached over anthropic-messages: ${server.url}/v1/models lists 1 model`],
      ['ok', `reached over gemini: ${server.url}/v1beta/models lists 1 model`],
    ]);
    const [anthropic, gemini] = server.requests.slice(-2);
    expect(anthropic).toMatchObject({ path: '/v1/models', headers: { 'x-api-key': 'sk-ant-key-1234', 'anthropic-version': '2023-06-01' } });
    expect(gemini).toMatchObject({ path: '/v1beta/models', headers: { 'x-goog-api-key': 'gem-key-1234' } });
  });

  it('fails on a refused key naming where it came from, and warns when nothing answers at the base URL', async () => {
    server.enqueue({ status: 401, headers: json, body: JSON.stringify({ error: { message: 'bad key' } }) });
    const port = await freePort();
    const checks = await reach(
      { providers: { keyed: { type: 'openai-chat', baseUrl: `${server.url}/v1`, apiKeyEnv: 'KEYED_KEY' }, down: { type: 'openai-chat', baseUrl: `http://127.0.0.1:${port}/v1` } } },
      { KEYED_KEY: 'sk-wrong-1234' },
    );
    const [down, keyed] = checks;
    expect(down?.status).toBe('warn');
    expect(down?.detail).toContain(`nothing answered at http://127.0.0.1:${port}/v1 (from providers.down.baseUrl in config.json)`);
    expect(keyed?.status).toBe('fail');
    expect(keyed?.detail).toContain('answered 401');
    expect(keyed?.detail).toContain('the API key came from the KEYED_KEY environment variable');
    expect(keyed?.detail).not.toContain('sk-wrong-1234');
  });
});
