import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/provider-config-schema.js';
import { apiKeyVariables } from '../../../src/config/resolve-api-key.js';
import { CircuitBreaker } from '../../../src/providers/http/circuit-breaker.js';
import type { LanguageModel } from '../../../src/providers/language-model.js';
import type { ModelRequest } from '../../../src/providers/request.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { providerPresets } from '../../../src/providers/registry/presets.js';
import { collectEvents } from '../../support/collect-events.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const okChat = 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
const request: ModelRequest = { model: '', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

function registry(providers: Record<string, ProviderConfig> = {}, env: NodeJS.ProcessEnv = {}) {
  return createProviderRegistry({ config: { providers }, env, breaker: new CircuitBreaker() });
}

/** Stream once through a resolved model and return the request the server saw. */
async function roundTrip(model: LanguageModel, body = okChat) {
  server.enqueue({ body });
  const events = await collectEvents(model.stream(request, new AbortController().signal));
  const sent = server.requests.at(-1);
  if (sent === undefined) throw new Error('no request recorded');
  return { events, sent };
}

describe('presets', () => {
  it('covers every required vendor, with https endpoints for hosted ones and loopback for local servers', () => {
    const ids = providerPresets.map((preset) => preset.id);
    expect(ids).toEqual(
      expect.arrayContaining(['anthropic', 'openai', 'google', 'azure', 'deepseek', 'mistral', 'groq', 'together', 'fireworks', 'openrouter', 'xai', 'cerebras', 'moonshot', 'zhipu', 'qwen', 'minimax', 'siliconflow', 'ollama', 'lmstudio', 'vllm', 'llamacpp']),
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const preset of providerPresets) {
      // Copilot needs a login, not a key (agentd login copilot), and is hosted.
      if (preset.protocol === 'copilot') expect(preset.baseUrl, preset.id).toMatch(/^https:\/\//);
      else if (preset.apiKeyEnv === undefined) expect(preset.baseUrl, preset.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      else if (preset.id !== 'azure') expect(preset.baseUrl, preset.id).toMatch(/^https:\/\//);
    }
  });

  it('names the same key variable as resolveApiKey for every keyed preset', () => {
    for (const preset of providerPresets.filter((p) => p.apiKeyEnv !== undefined)) {
      expect(apiKeyVariables(preset.id, undefined), preset.id).toContain(preset.apiKeyEnv);
    }
  });
});

describe('createProviderRegistry', () => {
  it('resolves a preset with its key from the environment, through the shared HTTP layer', async () => {
    const model = registry({ deepseek: { baseUrl: `${server.url}/v1` } }, { DEEPSEEK_API_KEY: 'sk-env' }).resolve('deepseek/deepseek-chat');
    expect([model.provider, model.modelId, model.protocol]).toEqual(['deepseek', 'deepseek-chat', 'openai-chat']);
    const { events, sent } = await roundTrip(model);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: { unified: 'end_turn', raw: 'stop' } });
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk-env');
    expect((sent.body as { model: string }).model).toBe('deepseek-chat');
  });

  it('prefers the environment key over the config key', async () => {
    const model = registry({ groq: { baseUrl: server.url, apiKey: 'sk-config' } }, { GROQ_API_KEY: 'sk-env' }).resolve('groq/llama');
    expect((await roundTrip(model)).sent.headers['authorization']).toBe('Bearer sk-env');
    const configOnly = registry({ groq: { baseUrl: server.url, apiKey: 'sk-config' } }).resolve('groq/llama');
    expect((await roundTrip(configOnly)).sent.headers['authorization']).toBe('Bearer sk-config');
  });

  it('makes a new OpenAI-compatible provider from config alone, keyless', async () => {
    const model = registry({ local: { type: 'openai-chat', baseUrl: `${server.url}/v1`, headers: { 'x-team': 'a' } } }).resolve('local/qwen3:8b');
    const { sent } = await roundTrip(model);
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.headers['x-team']).toBe('a');
    expect((sent.body as { model: string }).model).toBe('qwen3:8b');
  });

  it('keeps model ids with slashes whole', () => {
    expect(registry({}, { OPENROUTER_API_KEY: 'k' }).resolve('openrouter/meta-llama/llama-3.1-8b').modelId).toBe('meta-llama/llama-3.1-8b');
  });

  it('lets config baseUrl win over the conventional variable, which wins over the preset', async () => {
    const env = { OPENAI_BASE_URL: `${server.url}/from-env`, OPENAI_API_KEY: 'k' };
    const fromEnv = registry({}, env).resolve('openai/gpt-x');
    expect((await roundTrip(fromEnv)).sent.path).toBe('/from-env/chat/completions');
    const fromConfig = registry({ openai: { baseUrl: `${server.url}/from-config` } }, env).resolve('openai/gpt-x');
    expect((await roundTrip(fromConfig)).sent.path).toBe('/from-config/chat/completions');
  });

  it('uses openai-responses for OpenAI itself and openai-chat for a compatible server behind OPENAI_BASE_URL', () => {
    expect(registry({}, { OPENAI_API_KEY: 'k' }).resolve('openai/gpt-5').protocol).toBe('openai-responses');
    expect(registry({}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).resolve('openai/qwen3').protocol).toBe('openai-chat');
    expect(registry({ openai: { type: 'openai-chat' } }, { OPENAI_API_KEY: 'k' }).resolve('openai/gpt-4.1').protocol).toBe('openai-chat');
  });

  it('lets an unnamed openai-chat provider take OPENAI_BASE_URL', async () => {
    const model = registry({ mine: { type: 'openai-chat' } }, { OPENAI_BASE_URL: `${server.url}/v9` }).resolve('mine/m');
    expect((await roundTrip(model)).sent.path).toBe('/v9/chat/completions');
  });

  it('creates the native protocols through the factory table', async () => {
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'ant', GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'gem' };
    const claude = registry({}, env).resolve('anthropic/claude-x');
    expect(claude.protocol).toBe('anthropic-messages');
    const anthropicSent = (await roundTrip(claude, 'event: message_stop\ndata: {"type":"message_stop"}\n\n')).sent;
    expect(anthropicSent.path).toBe('/v1/messages');
    expect(anthropicSent.headers['x-api-key']).toBe('ant');
    const gemini = registry({}, env).resolve('google/gemini-x');
    expect(gemini.protocol).toBe('gemini');
    const geminiSent = (await roundTrip(gemini, 'data: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\n\n')).sent;
    expect(geminiSent.path).toContain('/models/gemini-x:streamGenerateContent');
    expect(geminiSent.headers['x-goog-api-key']).toBe('gem');
  });

  it('speaks Azure with a deployment URL, api-key header and api-version', async () => {
    const model = registry(
      { azure: { baseUrl: server.url, azure: { apiVersion: '2025-01-01-preview', deployment: 'prod-4o' } } },
      { AZURE_OPENAI_API_KEY: 'az' },
    ).resolve('azure/gpt-4o');
    const { sent } = await roundTrip(model);
    expect(sent.path).toBe('/openai/deployments/prod-4o/chat/completions?api-version=2025-01-01-preview');
    expect(sent.headers['api-key']).toBe('az');
    const fromEnv = registry({}, { AZURE_OPENAI_ENDPOINT: server.url, AZURE_OPENAI_API_KEY: 'az' }).resolve('azure/gpt-4o');
    expect((await roundTrip(fromEnv)).sent.path).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
  });

  it('names the known providers and how to add one for an unknown id', () => {
    expect(() => registry({ local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1' } }).resolve('nope/m')).toThrow(
      /unknown provider "nope"\. Known providers: .*deepseek.*local.*\n.*add to config\.json:\n.*"nope": \{ "type": "openai-chat", "baseUrl"/,
    );
  });

  it('names the variable and the config key when a key is missing', () => {
    expect(() => registry().resolve('deepseek/deepseek-chat')).toThrow(
      'provider "deepseek" needs an API key: set the DEEPSEEK_API_KEY environment variable, or providers.deepseek.apiKey (or providers.deepseek.apiKeyEnv) in config.json',
    );
    expect(() => registry({ deepseek: { apiKeyEnv: 'MY_DS' } }).resolve('deepseek/x')).toThrow('set the MY_DS or DEEPSEEK_API_KEY environment variable');
    expect(registry({ deepseek: { apiKeyEnv: 'MY_DS' } }, { MY_DS: 'k' }).isConfigured('deepseek')).toBe(true);
  });

  it('explains a missing type, a missing base URL and a malformed reference', () => {
    expect(() => registry({ box: { baseUrl: 'http://127.0.0.1:1/v1' } }).resolve('box/m')).toThrow('set providers.box.type');
    expect(() => registry({ box: { type: 'openai-chat' } }).resolve('box/m')).toThrow('provider "box" has no base URL: set providers.box.baseUrl');
    expect(() => registry({}, { AZURE_OPENAI_API_KEY: 'k' }).resolve('azure/m')).toThrow('or the AZURE_OPENAI_ENDPOINT environment variable');
    expect(() => registry().resolve('gpt-4')).toThrow('must be "provider/model"');
    expect(() => registry({}, { OPENAI_BASE_URL: 'localhost:1234' }).resolve('openai/m')).toThrow('OPENAI_BASE_URL="localhost:1234" is not an http(s) URL');
  });

  it('lists provider ids and says which are configured', () => {
    const reg = registry({ local: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1' } }, { MISTRAL_API_KEY: 'k' });
    expect(reg.providerIds()).toEqual([...providerPresets.map((p) => p.id), 'local'].sort());
    expect(reg.isConfigured('local')).toBe(true);
    expect(reg.isConfigured('ollama')).toBe(true);
    expect(reg.isConfigured('mistral')).toBe(true);
    expect(reg.isConfigured('anthropic')).toBe(false);
    expect(reg.isConfigured('azure')).toBe(false);
    expect(reg.isConfigured('nope')).toBe(false);
  });

  it('retries per the provider config, then leaves the fallback to the loop', async () => {
    const overloaded = { status: 529, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"Overloaded"}}' };
    const reg = registry({ primary: { type: 'openai-chat', baseUrl: server.url, maxRetries: 0 } });
    const before = server.requests.length;
    server.enqueue(overloaded);
    const events = await collectEvents(reg.resolve('primary/a').stream(request, new AbortController().signal));
    expect(events).toMatchObject([{ type: 'error', error: { kind: 'overloaded', status: 529 } }]);
    expect(server.requests.length - before).toBe(1);
  });
});
