import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

const SLOW = fileURLToPath(new URL('../fixtures/mcp/slow-to-start.mjs', import.meta.url));
const HANGS = fileURLToPath(new URL('../fixtures/mcp/hangs-in-initialize.mjs', import.meta.url));
const CRASHY = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));

/** The tool names a model request offered (OpenAI chat completions body). */
const offered = (body: unknown): string[] => ((body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);

/** The "Start MCP server <name>" entries of a session's updates: the tool_call and its updates, in order. */
function startEntries(updates: any[], name: string): any[] {
  const ids = new Set(updates.filter((u) => u.sessionUpdate === 'tool_call' && u.title === `Start MCP server ${name}`).map((u) => u.toolCallId));
  return updates.filter((u) => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && ids.has(u.toolCallId));
}

/** A prompt sent right after session/new: the session's MCP servers still starting are waited for, visibly. */
describe('the first prompt after session/new', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;

  const start = async (config: Record<string, unknown> = {}): Promise<void> => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, ...config });
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd(), { permissionMode: 'bypass' });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  };

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("gets the tools of a server that is slow to start, and shows the wait as a tool call", async () => {
    await start();
    const { peer } = daemon;
    const slow = { name: 'slow', command: process.execPath, args: [SLOW], env: [] };
    const { sessionId, _meta } = await peer.call('session/new', { cwd: workspace, mcpServers: [slow] });
    expect(agentdMeta({ _meta }).mcpServers).toContainEqual({ name: 'slow', state: 'starting', tools: [] });

    replay.enqueue({ body: chatCompletionSse(['Looked it up.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'look up "daemon"' }] })).toEqual({ stopReason: 'end_turn' });
    expect(offered(replay.requests[0]!.body)).toContain('slow__lookup');

    // Shown while it waits, closed when the server runs, all before the answer streams.
    const updates = peer.updates(sessionId);
    const entries = startEntries(updates, 'slow');
    expect(entries).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: expect.any(String),
        title: 'Start MCP server slow',
        kind: 'other',
        status: 'in_progress',
        content: [{ type: 'content', content: { type: 'text', text: 'Waiting for MCP server slow to start (up to 10 s) so this prompt gets its tools.' } }],
        rawInput: { server: 'slow' },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: entries[0].toolCallId,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'MCP server slow is running with 1 tool(s).' } }],
      },
    ]);
    expect(updates.indexOf(entries[1])).toBeLessThan(updates.findIndex((u) => u.sessionUpdate === 'agent_message_chunk'));
    // Nothing of it reaches the model's conversation.
    expect(JSON.stringify((replay.requests[0]!.body as { messages: unknown }).messages)).not.toContain('Start MCP server');
    expect(validateDaemonWire(peer.sentLines, peer.rawLines)).toEqual([]);
  });

  it('waits for a server that never starts only up to its startupTimeoutMs, then goes on without it, and not again', async () => {
    await start({
      mcpServers: { hung: { command: process.execPath, args: [HANGS], env: { MCP_PID_FILE: join(tmpdir(), `agentd-hung-${process.pid}.pids`) }, startupTimeoutMs: 1000 } },
    });
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });

    replay.enqueue({ body: chatCompletionSse(['Without it.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    const first = startEntries(peer.updates(sessionId), 'hung');
    expect(first.map((u) => [u.sessionUpdate, u.status])).toEqual([
      ['tool_call', 'in_progress'],
      ['tool_call_update', 'failed'],
    ]);
    expect(first[1].content[0].content.text).toMatch(/did not start within 1000 ms.*raise its "startupTimeoutMs" under "mcpServers" in config\.json \(or "tools\.mcpStartupTimeoutMs"/);

    // It failed: the next prompt does not wait for it, nor show its failure again.
    replay.enqueue({ body: chatCompletionSse(['Still without it.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] })).toEqual({ stopReason: 'end_turn' });
    expect(startEntries(peer.updates(sessionId), 'hung')).toEqual(first);
    for (const request of replay.requests) {
      expect(offered(request.body).some((name) => name.startsWith('hung__'))).toBe(false);
      expect(JSON.stringify(request.body)).not.toContain('MCP server hung');
    }
    expect(validateDaemonWire(peer.sentLines, peer.rawLines)).toEqual([]);
  });

  it('holds a server from session/new to tools.mcpStartupTimeoutMs, the limit of every server without its own', async () => {
    await start({ tools: { mcpStartupTimeoutMs: 800 } });
    const { peer } = daemon;
    const stuck = { name: 'stuck', command: process.execPath, args: [HANGS], env: [{ name: 'MCP_PID_FILE', value: join(workspace, 'stuck.pids') }] };
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [stuck] });
    replay.enqueue({ body: chatCompletionSse(['Went on.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    const entries = startEntries(peer.updates(sessionId), 'stuck');
    expect(entries[0].content[0].content.text).toBe('Waiting for MCP server stuck to start (up to 0.8 s) so this prompt gets its tools.');
    expect(entries.map((u) => u.status)).toEqual(['in_progress', 'failed']);
    expect(entries[1].content[0].content.text).toMatch(/did not start within 800 ms/);
  });

  it('offers the tools of a server that came up during the turn from the next model request on', async () => {
    await start();
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    // The first answer (a tool call, so the turn goes on) comes late enough for a server to start meanwhile.
    const late = chatToolCallSse([{ id: 'call-1', name: 'ls', arguments: { path: '.' } }]);
    replay.enqueue({ body: late, chunking: { splitAt: [late.indexOf('\n\n') + 2] }, delayMs: 8000 });
    replay.enqueue({ body: chatCompletionSse(['Done.']) });
    const prompt = peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'list, then echo' }] });
    await until(() => replay.requests.length === 1, 10_000, 'the first model request');
    const crashy = { name: 'crashy', command: process.execPath, args: [CRASHY], env: [] };
    await peer.call('session/resume', { sessionId, cwd: workspace, mcpServers: [crashy] });
    const context = await daemon.context();
    await until(() => context.mcp.status(sessionId).some((s) => s.name === 'crashy' && s.state === 'running'), 7_000, 'crashy to run');
    expect(await prompt).toEqual({ stopReason: 'end_turn' });
    expect(offered(replay.requests[0]!.body)).not.toContain('crashy__echo');
    expect(offered(replay.requests[1]!.body)).toContain('crashy__echo');
  });
});
