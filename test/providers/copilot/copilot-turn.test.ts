import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeCopilotLogin } from '../../support/copilot-login-file.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { copilotTokenAnswer, startGitHubStandIn, type GitHubStandIn } from '../../support/github-stand-in.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { toolResults } from '../../support/loop-harness.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/copilot/${name}.sse`, import.meta.url)));

describe('a tool-using turn on GitHub Copilot, end to end in the daemon', () => {
  let github: GitHubStandIn;
  let chat: ReplayServer;
  let daemon: InProcessDaemon;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  afterEach(async () => {
    await daemon.close();
    await chat.close();
    await github.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function start(login: boolean): Promise<string> {
    chat = await startReplayServer();
    github = await startGitHubStandIn({ exchange: (n) => copilotTokenAnswer(chat.url, { token: `tid=copilot-e2e-${n}` }) });
    home = makeHome({ model: 'copilot/gpt-4o', providers: { copilot: { type: 'copilot', maxRetries: 0 } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    if (login) await writeCopilotLogin(daemonEnv(home.home), github.url, 'ghu_e2e');
    daemon = startInProcessDaemon(daemonEnv(home.home), workspace);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    return (await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
  }

  it('exchanges the stored login once, streams the recorded tool call, runs the read and answers from its result', async () => {
    const sessionId = await start(true);
    writeFileSync(join(workspace, 'config.toml'), '[server]\nport = 8080\n');
    chat.enqueue({ body: fixture('tool-call') });
    chat.enqueue({ body: fixture('text-answer') });

    const result = await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Which port does config.toml set?' }] });
    expect(result).toEqual({ stopReason: 'end_turn' });
    expect(daemon.peer.agentText(sessionId)).toBe('The port is 8080.');

    expect(github.exchanges()).toHaveLength(1);
    expect(github.exchanges()[0]!.headers.authorization).toBe('token ghu_e2e');
    expect(chat.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /chat/completions', 'POST /chat/completions']);
    for (const request of chat.requests) {
      expect(request.headers).toMatchObject({ authorization: 'Bearer tid=copilot-e2e-0', 'copilot-integration-id': 'vscode-chat', 'openai-intent': 'conversation-panel' });
      expect(request.headers['editor-version']).toMatch(/^vscode\//);
      expect((request.body as { model: string; stream: boolean }).model).toBe('gpt-4o');
    }
    expect(toolResults(chat.requests[1]!.body as never).call_ZQkSp6hzLvcGcH2L2CmaBkXM).toContain('port = 8080');
    const readCall = daemon.peer.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call');
    expect(readCall).toMatchObject({ toolCallId: 'call_ZQkSp6hzLvcGcH2L2CmaBkXM', kind: 'read', rawInput: { path: 'config.toml' } });
  });

  it('without a login the prompt fails with the one line that says how to log in', async () => {
    const sessionId = await start(false);
    const answer = await daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(answer.error?.message).toBe('model copilot/gpt-4o cannot be used: copilot: not logged in; run `agentd login copilot`');
    expect(chat.requests).toHaveLength(0);
  });
});
