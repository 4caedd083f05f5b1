import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { connectPeer, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';
import type { ToolDefinition } from '../../protocol/index.js';

/** A client tool the model calls; the test answers it, which is when the disk fills. */
const holdHere: ToolDefinition = {
  name: 'hold_here',
  description: 'Waits for the client.',
  inputSchema: { type: 'object', properties: {} },
  kind: 'read',
  access: 'read',
};

/** Writes a file until the file system says ENOSPC: the disk is full for real. */
function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}

describe('a store failure on the turn path (the data directory on a small tmpfs)', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let dataDir: string;
  let workspace: string;
  let daemon: DaemonChild;
  let peer: RpcPeer;
  let socketPath: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    dataDir = join(home.home, 'data');
    mkdirSync(dataDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dataDir]);
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    socketPath = join(home.home, 'agentd.sock');
    daemon = spawnDaemon(['serve', '--socket', socketPath], daemonEnv(home.home));
    await until(async () => {
      try {
        (await connectPeer(socketPath)).close();
        return true;
      } catch {
        return false;
      }
    }, 10_000, 'the daemon');
    peer = await connectPeer(socketPath);
    await peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await replay.close();
    execFileSync('umount', [dataDir]);
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  const prompt = (sessionId: string, text: string, meta?: Record<string, unknown>) =>
    peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }], ...(meta ? { _meta: meta } : {}) });

  function turnStatuses(): string[] {
    const db = new Database(join(dataDir, 'agentd.db'), { readonly: true });
    try {
      return (db.prepare('SELECT status FROM turns ORDER BY started_at, rowid').all() as Array<{ status: string }>).map((r) => r.status);
    } finally {
      db.close();
    }
  }

  it('[F10 store-failure] a full disk mid-turn answers the prompt and the queued follow-up with the error; the next prompt runs once space is back', async () => {
    await peer.call('tools/register', { tools: [holdHere] });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['The answer ', 'is 42.']) });
    expect((await prompt(sessionId, 'question one')).result).toEqual({ stopReason: 'end_turn' });

    replay.enqueue({ body: chatToolCallSse([{ id: 'call_h', name: 'hold_here', arguments: {} }]) });
    const second = prompt(sessionId, 'question two');
    const call = await peer.waitFor((m) => m.method === 'tools/call');
    const followUp = prompt(sessionId, 'and then this', { agentd: { delivery: 'followUp' } });
    await peer.waitFor((m) => m.params?.event?.type === 'queue' && m.params.event.followUp === 1);
    const filler = fillDisk(dataDir);
    peer.send({ jsonrpc: '2.0', id: call.id!, result: { content: [{ type: 'text', text: 'held' }] } });

    const failed = await second;
    expect(failed.error!.code).toBe(-32603);
    expect(failed.error!.message).toMatch(/^the session store could not save the tool results \(SQLITE_FULL: /);
    expect(failed.error!.message).toMatch(/free some space and prompt again/);
    expect(failed.error!.data).toEqual({ kind: 'store_write_failed', sqliteCode: 'SQLITE_FULL' });
    const queued = await followUp;
    expect(queued.error!.message).toMatch(/could not save the tool results/);

    // Idle again, while the disk is still full: a prompt is not refused as busy, it meets the full disk.
    const stillFull = await prompt(sessionId, 'are you there?');
    expect(stillFull.error!.code).toBe(-32603);
    expect(stillFull.error!.message).toMatch(/SQLITE_FULL/);

    rmSync(filler);
    replay.enqueue({ body: chatCompletionSse(['Back again.']) });
    expect((await prompt(sessionId, 'question three')).result).toEqual({ stopReason: 'end_turn' });
    // The failed turn's end was recorded before the next turn started.
    expect(turnStatuses()).toEqual(['end_turn', 'error', 'end_turn']);
    const sent = JSON.stringify(replay.requests.at(-1)!.body);
    for (const text of ['question one', 'The answer is 42.', 'question two', 'question three']) expect(sent).toContain(text);
    expect(sent).not.toContain('are you there?');

    // History before the failure is intact on session/load from another connection.
    const other = await connectPeer(socketPath);
    await other.call('initialize', { protocolVersion: 1 });
    const loaded = await other.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).state).toBe('idle');
    const replayed = other.updates(sessionId).filter((u) => u.content?.type === 'text').map((u) => [u.sessionUpdate, u.content.text]);
    expect(replayed).toEqual([
      ['user_message_chunk', 'question one'],
      ['agent_message_chunk', 'The answer is 42.'],
      ['user_message_chunk', 'question two'],
      ['user_message_chunk', 'question three'],
      ['agent_message_chunk', 'Back again.'],
    ]);
    other.close();
  });

  it('[F10 store-failure] a full disk before the turn starts refuses the prompt clearly and never leaves the session busy', async () => {
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const filler = fillDisk(dataDir);
    for (const text of ['first try', 'second try']) {
      const refused = await prompt(sessionId, text);
      expect(refused.error!.code).toBe(-32603);
      expect(refused.error!.message).toMatch(/^the session store could not save the (start of the turn|prompt) \(SQLITE_FULL/);
    }
    expect(replay.requests).toHaveLength(0);
    rmSync(filler);
    replay.enqueue({ body: chatCompletionSse(['fine now']) });
    expect((await prompt(sessionId, 'third try')).result).toEqual({ stopReason: 'end_turn' });
    expect(turnStatuses().at(-1)).toBe('end_turn');
    expect(turnStatuses()).not.toContain('running');
  });

  it('[F10 store-failure] a full disk while the model streams ends the turn with the error, and the stream\'s text is not half-saved', async () => {
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const body = chatCompletionSse(['partial ', 'answer', ' rest']);
    // The first words, then a pause in which the disk fills: the rest of the answer comes
    // after, so the assistant message is saved only once the disk is full.
    replay.enqueue({ body, chunking: { splitAt: [body.indexOf('data: ', body.indexOf('partial '))] }, delayMs: 500 });
    const running = prompt(sessionId, 'stream something');
    await peer.waitFor((m) => m.params?.update?.content?.text === 'partial ');
    const filler = fillDisk(dataDir);
    const failed = await running;
    expect(failed.error!.message).toMatch(/could not save the model's message \(SQLITE_FULL/);
    rmSync(filler);
    replay.enqueue({ body: chatCompletionSse(['second answer']) });
    expect((await prompt(sessionId, 'again')).result).toEqual({ stopReason: 'end_turn' });
    // The model saw the stored history only: the unsaved answer is not in it.
    const sent = JSON.stringify(replay.requests.at(-1)!.body);
    expect(sent).toContain('stream something');
    expect(sent).not.toContain('partial answer rest');
    expect(turnStatuses()).toEqual(['error', 'end_turn']);
  });
});
