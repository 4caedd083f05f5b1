import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { connectPeer, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

describe('tool-call hooks', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
    writeFileSync(join(workspace, 'b.txt'), 'bravo\n');
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      hooks: {
        beforeToolCall: [
          { command: "echo 'no shell in this project' >&2; exit 2", tools: ['bash'] },
          { command: 'echo \'{"arguments": {"path": "b.txt"}}\'', tools: ['read'] },
        ],
      },
    });
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('blocks and rewrites calls with config command hooks and lets a registered client veto and replace results', async () => {
    const socketPath = join(home.home, 'agentd.sock');
    daemon = spawnDaemon(['serve', '--socket', socketPath], daemonEnv(home.home));
    await untilListening(socketPath);
    const editor = await connectPeer(socketPath);
    const guard = await connectPeer(socketPath);
    await editor.call('initialize', { protocolVersion: 1 });
    await guard.call('initialize', { protocolVersion: 1 });
    expect(await guard.call('hooks/register', { events: ['beforeToolCall', 'afterToolCall'], tools: ['ls', 'glob'] })).toEqual({ registered: true });
    const { sessionId } = await editor.call('session/new', { cwd: workspace, mcpServers: [] });

    replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_bash', name: 'bash', arguments: { command: 'echo hi' } },
        { id: 'call_read', name: 'read', arguments: { path: 'a.txt' } },
        { id: 'call_ls', name: 'ls', arguments: {} },
        { id: 'call_glob', name: 'glob', arguments: { pattern: '*.txt' } },
      ]),
    });
    replay.enqueue({ body: chatCompletionSse(['Done.']) });
    const prompt = editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look around' }] });

    // The guard client is asked before ls and glob, and after ls (glob it blocks).
    const beforeLs = await guard.waitFor((m) => m.method === 'hooks/beforeToolCall' && m.params.name === 'ls');
    expect(beforeLs.params).toEqual({ sessionId, toolCallId: 'call_ls', name: 'ls', arguments: {} });
    guard.send({ jsonrpc: '2.0', id: beforeLs.id!, result: { decision: 'allow' } });
    const beforeGlob = await guard.waitFor((m) => m.method === 'hooks/beforeToolCall' && m.params.name === 'glob');
    guard.send({ jsonrpc: '2.0', id: beforeGlob.id!, result: { decision: 'block', reason: 'the guard says no globbing' } });
    const afterLs = await guard.waitFor((m) => m.method === 'hooks/afterToolCall');
    expect(afterLs.params.toolCallId).toBe('call_ls');
    expect(afterLs.params.result.content[0].text).toContain('a.txt');
    guard.send({ jsonrpc: '2.0', id: afterLs.id!, result: { result: { content: [{ type: 'text', text: 'listing withheld by the guard' }] } } });

    expect((await prompt).result).toEqual({ stopReason: 'end_turn' });
    const body = replay.requests[1]!.body;
    expect(toolResultText(body, 'call_bash')).toMatch(/Blocked by a hook: no shell in this project$/);
    expect(toolResultText(body, 'call_read')).toContain('bravo');
    expect(toolResultText(body, 'call_read')).not.toContain('alpha');
    expect(toolResultText(body, 'call_ls')).toBe('listing withheld by the guard');
    expect(toolResultText(body, 'call_glob')).toMatch(/Blocked by a hook: the guard says no globbing$/);
    expect(guard.received.filter((m) => m.method === 'hooks/afterToolCall')).toHaveLength(1);

    // Once the guard disconnects its hooks are gone: ls runs untouched.
    guard.close();
    // The daemon ends its side only after handling the hang-up (its hooks are removed by then).
    await guard.closed;
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_ls2', name: 'ls', arguments: {} }]) });
    replay.enqueue({ body: chatCompletionSse(['Listed.']) });
    await editor.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'list again' }] });
    expect(toolResultText(replay.requests[3]!.body, 'call_ls2')).toContain('b.txt');
  });

  it('refuses hooks/register for an unknown session', async () => {
    daemon = spawnDaemon(['serve'], daemonEnv(home.home));
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const answer = await daemon.peer.request('hooks/register', { events: ['beforeToolCall'], sessionId: 'nope' });
    expect(answer.error).toMatchObject({ code: -32002, message: expect.stringMatching(/session nope not found/) });
    const empty = await daemon.peer.request('hooks/register', { events: [] });
    expect(empty.error!.code).toBe(-32602);
  });
});

/** Waits until the daemon accepts connections (the socket file appears at bind, before listen). */
async function untilListening(socketPath: string): Promise<void> {
  await until(async () => {
    try {
      (await connectPeer(socketPath)).close();
      return true;
    } catch {
      return false;
    }
  }, 10_000, 'the daemon to listen');
}
