import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { connectPeer, daemonEnv, makeHome, spawnDaemon, until, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import type { RpcPeer } from '../support/rpc-peer.js';
import type { ToolDefinition } from '../../protocol/index.js';

const openInEditor: ToolDefinition = {
  name: 'open_in_editor',
  description: 'Open a file in the user\'s editor at a line.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } }, required: ['path'] },
  kind: 'read',
  // Read access: the default permission mode runs it without asking.
  access: 'read',
};

describe('client-registered tools over the daemon socket', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild;
  let socketPath: string;
  let a: RpcPeer;
  let b: RpcPeer;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    socketPath = join(home.home, 'agentd.sock');
    daemon = spawnDaemon(['serve', '--socket', socketPath], daemonEnv(home.home));
    await untilListening(socketPath);
    a = await connectPeer(socketPath);
    b = await connectPeer(socketPath);
    await a.call('initialize', { protocolVersion: 1 });
    await b.call('initialize', { protocolVersion: 1 });
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('runs a tool client A registered when client B\'s session calls it, and fails clearly when A disconnects mid-call', async () => {
    expect(await a.call('tools/register', { tools: [openInEditor] })).toEqual({ registered: ['open_in_editor'] });
    const { sessionId } = await b.call('session/new', { cwd: workspace, mcpServers: [] });
    const listed = (await b.call('tools/list', { sessionId })).tools as Array<{ name: string; origin: string }>;
    expect(listed.find((t) => t.name === 'open_in_editor')).toEqual({ ...openInEditor, origin: 'client' });
    expect(listed.find((t) => t.name === 'read')).toMatchObject({ origin: 'builtin', kind: 'read' });
    expect(listed.map((t) => t.name)).toEqual([...listed.map((t) => t.name)].sort());

    // Run 1: the model calls A's tool, A answers, the answer reaches the model.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_1', name: 'open_in_editor', arguments: { path: 'a.ts', line: 3 } }]) });
    replay.enqueue({ body: chatCompletionSse(['Opened it.']) });
    const first = b.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'open a.ts at line 3' }] });
    const call = await a.waitFor((m) => m.method === 'tools/call');
    expect(call.params).toEqual({ sessionId, toolCallId: 'call_1', name: 'open_in_editor', arguments: { path: 'a.ts', line: 3 } });
    a.send({ jsonrpc: '2.0', id: call.id!, result: { content: [{ type: 'text', text: 'Opened a.ts at line 3.' }] } });
    expect((await first).result).toEqual({ stopReason: 'end_turn' });
    expect(replay.requests).toHaveLength(2);
    expect(toolResultText(replay.requests[1]!.body, 'call_1')).toBe('Opened a.ts at line 3.');
    expect(b.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed' }),
    );

    // Run 2: A disconnects while the call waits for it; the model is told, and the tool is gone.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_2', name: 'open_in_editor', arguments: { path: 'b.ts' } }]) });
    replay.enqueue({ body: chatCompletionSse(['The editor went away.']) });
    const second = b.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'open b.ts' }] });
    await a.waitFor((m) => m.method === 'tools/call' && m.params.toolCallId === 'call_2');
    a.close();
    expect((await second).result).toEqual({ stopReason: 'end_turn' });
    // (openai-chat marks error results with an "Error: " prefix.)
    expect(toolResultText(replay.requests[3]!.body, 'call_2')).toMatch(
      /^(Error: )?The client that provided tool "open_in_editor" \(unix#\d+\) disconnected before answering; the tool is no longer available\.$/,
    );
    expect(b.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'call_2', status: 'failed' }),
    );
    const after = (await b.call('tools/list', { sessionId })).tools as Array<{ name: string }>;
    expect(after.map((t) => t.name)).not.toContain('open_in_editor');
  });

  it('answers bad registrations with -32602 naming the tool and field, and unregisters only the caller\'s tools', async () => {
    const bad = await a.request('tools/register', {
      tools: [{ ...openInEditor, name: 'broken', inputSchema: { type: 'object', required: 'path' } }],
    });
    expect(bad.error).toMatchObject({ code: -32602, message: 'invalid params for tools/register: tools[0] ("broken").inputSchema.required: must be array' });
    const clash = await a.request('tools/register', { tools: [{ ...openInEditor, name: 'bash' }] });
    expect(clash.error!.message).toBe('invalid params for tools/register: tools[0] ("bash").name: "bash" is already taken by a built-in tool; choose another name');
    const unknownSession = await a.request('tools/register', { tools: [{ ...openInEditor, sessionId: 'no-such-session' }] });
    expect(unknownSession.error!.code).toBe(-32002);
    expect(unknownSession.error!.message).toMatch(/^tools\[0\] \("open_in_editor"\)\.sessionId: session no-such-session not found/);

    await a.call('tools/register', { tools: [openInEditor] });
    const taken = await b.request('tools/register', { tools: [openInEditor] });
    expect(taken.error!.message).toMatch(/"open_in_editor" is already taken by a tool of another client \(unix#\d+\)/);
    expect(await b.call('tools/unregister', { names: ['open_in_editor'] })).toEqual({ unregistered: [] });
    expect(await a.call('tools/unregister', { names: ['open_in_editor'] })).toEqual({ unregistered: ['open_in_editor'] });
    expect((await b.call('tools/list', {})).tools.map((t: { name: string }) => t.name)).not.toContain('open_in_editor');
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
