import { afterEach, describe, expect, it } from 'vitest';
import { modelsCommand } from '../../../src/cli/commands/models.js';
import { createProviderRegistry } from '../../../src/providers/registry/create-provider-registry.js';
import { writeCopilotLogin } from '../../support/copilot-login-file.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn } from '../../support/github-stand-in.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

/**
 * `GET <endpoints.api>/models` as the Copilot clients read it
 * (https://github.com/ericc-ch/copilot-api/blob/HEAD/src/services/copilot/get-models.ts: `{data:[{id, name, vendor, capabilities:{family, type,
 * limits, supports}, model_picker_enabled, …}], object:"list"}`), an embeddings model included.
 */
const seatModels = {
  data: [
    { capabilities: { family: 'gpt-4o', limits: { max_context_window_tokens: 128000, max_output_tokens: 4096, max_prompt_tokens: 64000 }, object: 'model_capabilities', supports: { parallel_tool_calls: true, tool_calls: true, streaming: true }, tokenizer: 'o200k_base', type: 'chat' }, id: 'gpt-4o', model_picker_enabled: true, name: 'GPT-4o', object: 'model', preview: false, vendor: 'Azure OpenAI', version: 'gpt-4o-2024-11-20' },
    { capabilities: { family: 'claude-sonnet-4', limits: { max_context_window_tokens: 80000, max_output_tokens: 16000, max_prompt_tokens: 80000 }, object: 'model_capabilities', supports: { tool_calls: true, streaming: true }, tokenizer: 'o200k_base', type: 'chat' }, id: 'claude-sonnet-4', model_picker_enabled: true, name: 'Claude Sonnet 4', object: 'model', policy: { state: 'enabled', terms: 'Enable access to the latest Claude Sonnet 4 model from Anthropic.' }, preview: false, vendor: 'Anthropic', version: 'claude-sonnet-4' },
    { capabilities: { family: 'text-embedding-3-small', limits: { max_inputs: 512 }, object: 'model_capabilities', supports: { dimensions: true }, tokenizer: 'cl100k_base', type: 'embeddings' }, id: 'text-embedding-3-small', model_picker_enabled: false, name: 'Embedding V3 small', object: 'model', preview: false, vendor: 'Azure OpenAI', version: 'text-embedding-3-small' },
  ],
  object: 'list',
};

describe("the Copilot seat's models", () => {
  let github: GitHubStandIn;
  let api: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  afterEach(async () => {
    await github.close();
    await api.close();
    home.cleanup();
  });

  async function setUp(login: boolean): Promise<NodeJS.ProcessEnv> {
    api = await startReplayServer({ respond: () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(seatModels) }) });
    github = await startGitHubStandIn({ exchange: () => copilotTokenAnswer(api.url, { token: 'tid=copilot-models' }) });
    home = makeHome({ providers: { copilot: { type: 'copilot' } } });
    const env = daemonEnv(home.home);
    if (login) await writeCopilotLogin(env, github.url);
    return env;
  }

  it('are asked of the seat with the Copilot token, chat models only', async () => {
    const env = await setUp(true);
    const registry = createProviderRegistry({ config: { providers: { copilot: { type: 'copilot' } } }, env });
    expect(registry.isConfigured('copilot')).toBe(true);
    expect(await registry.listModels('copilot', 5_000)).toEqual({ kind: 'ok', protocol: 'copilot', url: `${api.url}/models`, models: ['claude-sonnet-4', 'gpt-4o'] });
    expect(api.requests[0]!.headers).toMatchObject({ authorization: 'Bearer tid=copilot-models', 'copilot-integration-id': 'vscode-chat' });
  });

  it('are asked the same way for a provider of another id with type copilot', async () => {
    const env = await setUp(true);
    const registry = createProviderRegistry({ config: { providers: { work: { type: 'copilot' } } }, env });
    expect(await registry.listModels('work', 5_000)).toMatchObject({ kind: 'ok', models: ['claude-sonnet-4', 'gpt-4o'] });
    expect(registry.resolve('work/gpt-4o').protocol).toBe('openai-chat');
  });

  it('are listed by agentd models --configured', async () => {
    const env = await setUp(true);
    let out = '';
    const code = await modelsCommand(['--configured', '--provider', 'copilot', '--json'], { env, cwd: home.home, write: (text) => void (out += text) });
    expect(code).toBe(0);
    const refs = out.trim().split('\n').map((line) => (JSON.parse(line) as { ref: string }).ref);
    expect(refs).toEqual(['copilot/claude-sonnet-4', 'copilot/gpt-4o']);
  });

  it('without a login the provider is not configured, and resolving it says how to log in', async () => {
    const env = await setUp(false);
    const registry = createProviderRegistry({ config: {}, env });
    expect(registry.isConfigured('copilot')).toBe(false);
    expect(() => registry.resolve('copilot/gpt-4o')).toThrow(/^copilot: not logged in; run `agentd login copilot`$/);
    expect(api.requests).toHaveLength(0);
  });
});
