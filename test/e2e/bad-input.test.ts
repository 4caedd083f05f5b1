import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

describe('bad input', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      server: { maxFrameBytes: 4096 },
    });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = spawnDaemon(['serve'], daemonEnv(home.home));
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('answers malformed JSON with -32700 and stays usable', async () => {
    const { peer } = daemon;
    peer.writeRaw('{"jsonrpc":"2.0","id":1,"method":\n');
    const error = await peer.waitFor((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect(error.error!.message).toMatch(/parse error/);
    const list = await peer.call('session/list', {});
    expect(list.sessions).toEqual([]);
  });

  it('answers an unknown method with -32601', async () => {
    const response = await daemon.peer.requestUnchecked('session/frobnicate', {});
    expect(response.error).toMatchObject({ code: -32601 });
    expect(response.error!.message).toContain('session/frobnicate');
  });

  it('answers invalid params with -32602 naming the JSON path and the expected type', async () => {
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const response = await peer.requestUnchecked('session/prompt', { sessionId, prompt: [{ type: 'text', text: 42 }] });
    expect(response.error!.code).toBe(-32602);
    expect(response.error!.message).toMatch(/prompt\[0\]/);
    expect(response.error!.message).toMatch(/string/);

    const relative = await peer.request('session/new', { cwd: 'relative/dir', mcpServers: [] });
    expect(relative.error!.code).toBe(-32602);
    expect(relative.error!.message).toMatch(/cwd: must be an absolute path/);

    const missing = await peer.request('session/new', { cwd: join(workspace, 'nope'), mcpServers: [] });
    expect(missing.error!.message).toMatch(/does not exist/);
  });

  it('answers an unknown session with -32002', async () => {
    const response = await daemon.peer.request('session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'x' }] });
    expect(response.error).toMatchObject({ code: -32002 });
    expect(response.error!.message).toMatch(/no-such-session not found/);
  });

  it('refuses an oversized frame with an error and closes the connection cleanly', async () => {
    const { peer } = daemon;
    peer.writeRaw(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'session/list', params: { cwd: 'x'.repeat(5000) } }) + '\n');
    const error = await peer.waitFor((m) => m.error?.code === -32011);
    expect(error.error!.message).toMatch(/exceeds the frame limit of 4096 bytes/);
    await peer.closed;
  });

  it('refuses a second prompt to a busy session unless it is a steer or follow-up', async () => {
    const { peer } = daemon;
    replay.enqueue({ body: chatCompletionSse(['one ', 'two ', 'three']), chunking: 'bytewise', delayMs: 5 });
    replay.enqueue({ body: chatCompletionSse(['follow-up answer']) });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const first = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');

    const busy = await peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] });
    expect(busy.error!.code).toBe(-32010);
    expect(busy.error!.message).toMatch(/busy/);
    expect(busy.error!.message).toMatch(/followUp/);

    const followUp = peer.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'and then?' }],
      _meta: { agentd: { delivery: 'followUp' } },
    });
    expect((await first).result).toEqual({ stopReason: 'end_turn' });
    expect((await followUp).result).toEqual({ stopReason: 'end_turn' });
    expect(peer.agentText(sessionId)).toBe('one two threefollow-up answer');
    expect(replay.requests).toHaveLength(2);
    expect(JSON.stringify(replay.requests[1]!.body)).toContain('and then?');
  });

  it('runs a prompt sent right after session/cancel, before the cancelled prompt answered, once that turn stops', async () => {
    const { peer } = daemon;
    const stalled = chatCompletionSse(['Working', ' on']);
    replay.enqueue({ body: stalled, stallAfterBytes: stalled.indexOf('" on"') });
    replay.enqueue({ body: chatCompletionSse(['Bye.']) });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const first = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] });
    await peer.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');

    // As avante.nvim sends them: the cancel, then at once the next prompt.
    peer.notify('session/cancel', { sessionId });
    const next = peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] });
    expect((await first).result).toEqual({ stopReason: 'cancelled' });
    const answer = await next;
    expect(answer.error).toBeUndefined();
    expect(answer.result).toEqual({ stopReason: 'end_turn' });
    expect(replay.requests).toHaveLength(2);
    expect(JSON.stringify(replay.requests[1]!.body)).toContain('second');
  });
});

describe('a config file with a type error', () => {
  it('stops the daemon with a message naming the file, the JSON path and the fix', async () => {
    const home = makeHome({ maxTurns: 'ten' });
    const daemon = spawnDaemon(['serve'], daemonEnv(home.home));
    const { code } = await daemon.exited;
    home.cleanup();
    expect(code).not.toBe(0);
    const stderr = daemon.stderr();
    expect(stderr).toContain(join(home.home, 'config', 'config.json'));
    expect(stderr).toContain('maxTurns');
    expect(stderr).toMatch(/number|integer/);
  });

  it('names the project file when .agentd/config.json is wrong, refusing that project\'s sessions only', async () => {
    const home = makeHome({});
    const project = mkdtempSync(join(tmpdir(), 'agentd-proj-'));
    const other = mkdtempSync(join(tmpdir(), 'agentd-proj-'));
    mkdirSync(join(project, '.agentd'));
    writeFileSync(join(project, '.agentd', 'config.json'), '{ "model": "no-slash" }');
    // Started in the broken project: the daemon serves every project, so it starts anyway.
    const daemon = spawnDaemon(['serve'], daemonEnv(home.home), project);
    try {
      await daemon.peer.call('initialize', { protocolVersion: 1 });
      const refused = await daemon.peer.request('session/new', { cwd: project, mcpServers: [] });
      expect(refused.error?.code).toBe(-32602);
      const detail = JSON.stringify(refused.error);
      expect(detail).toContain(join(project, '.agentd', 'config.json'));
      expect(detail).toMatch(/model/);
      expect(detail).toMatch(/expected a string like \\"openai\/gpt-4.1\\"/);
      expect((await daemon.peer.call('session/new', { cwd: other, mcpServers: [] })).sessionId).toEqual(expect.any(String));
    } finally {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      home.cleanup();
      rmSync(project, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });
});
