import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { connectWhenListening, daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';
import { agentdMeta } from '../support/agentd-meta.js';

/** A shared daemon's problems with a project (an agent file it cannot read) reach the client, not only its log. */
describe('problems of a daemon reach the client that hits them', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild | undefined;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, models: { tiny: {} } } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    mkdirSync(join(workspace, '.agentd', 'agents'), { recursive: true });
    writeFileSync(join(workspace, '.agentd', 'agents', 'reviewer.md'), '---\nname: reviewer\ntools: [oops\n---\nReview.\n');
  });

  afterEach(async () => {
    daemon?.child.kill('SIGKILL');
    await daemon?.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('agentd run through the shared daemon prints a broken agent file once; an editor gets it in session/new and as a notice', async () => {
    const env = daemonEnv(home.home);
    daemon = spawnDaemon(['serve', '--socket'], env);
    const editor = await connectWhenListening(join(home.home, 'run', 'agentd.sock'));
    await editor.call('initialize', { protocolVersion: 1, clientCapabilities: { session: { notices: {} } } });
    const created = await editor.call('session/new', { cwd: workspace, mcpServers: [] });
    const problems = agentdMeta(created).problems as string[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${join(workspace, '.agentd', 'agents', 'reviewer.md')}:3:\\d+: invalid YAML front matter`));
    const notice = await editor.waitFor((m) => (m as { params?: { update?: { sessionUpdate?: string } } }).params?.update?.sessionUpdate === 'notice', 5_000, 'the notice');
    expect((notice as { params: { update: { severity: string; title: string } } }).params.update).toMatchObject({ severity: 'warning', title: problems[0] });
    editor.close();

    replay.enqueue({ body: chatCompletionSse(['fine']) });
    const run = await runCli(['run', '--cwd', workspace, 'hi'], env);
    expect(run.stdout).toBe('fine\n');
    // Once: from the answer to session/new, not again from the notice that follows it.
    expect(run.stderr.split('\n').filter((line) => line.includes('reviewer.md'))).toEqual([`agentd: warning: ${problems[0]}`]);
  }, 30_000);
});
