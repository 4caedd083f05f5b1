import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

/** What `agentd run` says when things go wrong, or when nothing does: each thing once. */
describe('agentd run: errors a user can act on, once', () => {
  let replay: ReplayServer;
  let workspace: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await replay.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('prints a model failure once, naming the key variable to check', async () => {
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, apiKeyEnv: 'LOCAL_KEY', models: { tiny: { contextWindow: 8192 } } } } });
    replay.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'Incorrect API key provided' } }) });
    const result = await runCli(['run', '--cwd', workspace, 'hi'], daemonEnv(home.home, { LOCAL_KEY: 'sk-not-a-real-key' }));
    home.cleanup();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `agentd: the model failed: local 401: Incorrect API key provided — the API key came from the LOCAL_KEY environment variable: check that it is a valid key for ${replay.url}/v1 (from providers.local.baseUrl in config.json)\n`,
    );
  });

  it('says a model is not in the catalog on the first run on this machine, not on every run', async () => {
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    replay.enqueue({ body: chatCompletionSse(['one']) });
    replay.enqueue({ body: chatCompletionSse(['two']) });
    const first = await runCli(['run', '--cwd', workspace, 'hi'], daemonEnv(home.home));
    const second = await runCli(['run', '--cwd', workspace, 'hi again'], daemonEnv(home.home));
    home.cleanup();
    expect([first.stdout, second.stdout]).toEqual(['one\n', 'two\n']);
    expect(first.stderr).toContain('model local/tiny is not in the catalog: assuming a 32768-token window and no prices; describe it in config.json as providers.local.models["tiny"]');
    expect(second.stderr).not.toContain('not in the catalog');
  });

  it('speaks in CLI terms: the flag that carried a refused value, the command that lists sessions', async () => {
    const home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, models: { tiny: {} } } } });
    const agent = await runCli(['run', '--cwd', workspace, '--agent', 'bulid', 'hi'], daemonEnv(home.home));
    const session = await runCli(['run', '--cwd', workspace, '--session', 'nope', 'hi'], daemonEnv(home.home));
    home.cleanup();
    expect(agent.stderr).toBe('agentd: --agent: unknown agent "bulid". Did you mean "build"? The agents are build, plan, explore\n');
    expect(session.stderr).toBe('agentd: session nope not found; list them with agentd sessions\n');
    expect([agent.code, session.code]).toEqual([1, 1]);
  });
});
