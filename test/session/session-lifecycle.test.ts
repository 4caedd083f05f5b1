import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

describe('session lifecycle over the wire', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let other: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    other = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });

  it('lists by cwd and pages with the cursor, newest first', async () => {
    const { peer } = daemon;
    const created: string[] = [];
    for (let i = 0; i < 55; i++) created.push((await peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId);
    await peer.call('session/new', { cwd: other, mcpServers: [] });

    const first = await peer.call('session/list', { cwd: workspace });
    expect(first.sessions).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await peer.call('session/list', { cwd: workspace, cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const ids = [...first.sessions, ...second.sessions].map((s: { sessionId: string }) => s.sessionId);
    expect(new Set(ids)).toEqual(new Set(created));
    expect(ids[0]).toBe(created.at(-1));
    for (const s of first.sessions) expect(s.cwd).toBe(workspace);

    const bad = await peer.request('session/list', { cursor: 'not-a-cursor' });
    expect(bad.error!.code).toBe(-32602);
    expect(bad.error!.message).toMatch(/cursor/);
  });

  it('aborts a running turn and answers once stopped; the prompt gets cancelled', async () => {
    const { peer } = daemon;
    replay.enqueue({ body: chatCompletionSse(Array.from({ length: 300 }, (_, i) => `${i} `)), chunking: 'bytewise', delayMs: 2 });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const prompt = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'count' }] });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
    expect(await peer.call('session/abort', { sessionId })).toEqual({ stopped: true });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });

    // The rich events of the turn reached this opted-in client, and the partial answer is stored.
    const events = peer.received.filter((m) => m.method === 'agentd/event').map((m) => m.params.event.type);
    expect(events).toContain('turn_start');
    expect(events).toContain('turn_end');
    replay.enqueue({ body: chatCompletionSse(['next']) });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    const history = JSON.stringify(replay.requests.at(-1)!.body);
    expect(history).toContain('count');
    expect(history).toMatch(/"role":"assistant","content":"0 /);
  });

  it('resumes without replay, closes and deletes', async () => {
    const { peer } = daemon;
    replay.enqueue({ body: chatCompletionSse(['stored answer']) });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'remember me' }] });
    expect(await peer.call('session/close', { sessionId })).toEqual({});

    const before = peer.updates(sessionId).length;
    const resumed = await peer.call('session/resume', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(resumed).state).toBe('idle');
    expect(peer.updates(sessionId).length).toBe(before);

    replay.enqueue({ body: chatCompletionSse(['still here']) });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'after resume' }] });
    expect(JSON.stringify(replay.requests.at(-1)!.body)).toContain('remember me');

    expect(await peer.call('session/delete', { sessionId })).toEqual({});
    expect((await peer.call('session/list', {})).sessions).toEqual([]);
    const gone = await peer.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(gone.error!.code).toBe(-32002);
    // Deleting it again, or a session that never was, succeeds and changes nothing (ACP: idempotent).
    expect(await peer.call('session/delete', { sessionId })).toEqual({});
    expect(await peer.call('session/delete', { sessionId: 'ses_never_was' })).toEqual({});
  });
});
