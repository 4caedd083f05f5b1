import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../../support/replay-server.js';

describe('session/info', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('describes a new session as live and idle, in its mode, with no title and no cost yet', async () => {
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const info = await peer.call('session/info', { sessionId });
    expect(info).toEqual({
      sessionId,
      cwd: workspace,
      additionalDirectories: [],
      title: null,
      mode: 'build',
      model: null,
      costUsd: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      live: true,
      state: 'idle',
    });
    await peer.call('session/set_mode', { sessionId, modeId: 'plan' });
    expect((await peer.call('session/info', { sessionId })).mode).toBe('plan');
  });

  it('says running while a turn runs, and idle once it has stopped', async () => {
    const { peer } = daemon;
    // The model sends its first words, then hangs until the turn is aborted.
    const body = chatCompletionSse(['Counting', ' on']);
    replay.enqueue({ body, stallAfterBytes: body.indexOf('" on"') });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const prompt = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Count to two hundred' }] });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    expect(await peer.call('session/info', { sessionId })).toMatchObject({ live: true, state: 'running' });
    await peer.call('session/abort', { sessionId });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    expect(await peer.call('session/info', { sessionId })).toMatchObject({ live: true, state: 'idle', title: 'Count to two hundred' });
  });

  it('answers for a closed session from the store, without loading it again', async () => {
    const { peer } = daemon;
    replay.enqueue({ body: chatCompletionSse(['done']) });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Say done' }] });
    await peer.call('session/close', { sessionId });

    const info = await peer.call('session/info', { sessionId });
    expect(info).toMatchObject({ sessionId, cwd: workspace, title: 'Say done', live: false, state: 'closed' });
    const { sessions } = await daemon.context();
    expect(sessions.get(sessionId)).toBeUndefined();
    // Nothing was replayed to the asking client.
    const replays = peer.received.filter((m) => m.method === 'session/update' && m.params?.update?.sessionUpdate === 'user_message_chunk');
    expect(replays).toHaveLength(0);
  });

  it('answers ResourceNotFound for an unknown session and InvalidParams without a sessionId', async () => {
    const { peer } = daemon;
    const unknown = await peer.request('session/info', { sessionId: 'ses_missing' });
    expect(unknown.error!.code).toBe(-32002);
    const missing = await peer.requestUnchecked('session/info', {});
    expect(missing.error!.code).toBe(-32602);
    expect(missing.error!.message).toMatch(/sessionId/);
  });
});
