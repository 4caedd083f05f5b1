import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));

describe('MCP servers', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let startLog: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    startLog = join(workspace, 'starts.log');
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      mcpServers: { crashy: { command: process.execPath, args: [FIXTURE], env: { MCP_START_LOG: startLog } } },
    });
    // bypass: the crash tool has execute access, which would ask.
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd(), { permissionMode: 'bypass' });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('calls a config stdio server\'s tools, passes results through, and recovers after the server crashes', async () => {
    const { peer } = daemon;
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    // Servers start in the background: their tools appear when they are running.
    let tools: Array<Record<string, unknown>> = [];
    await until(async () => {
      tools = (await peer.call('tools/list', { sessionId })).tools;
      return tools.some((t) => t.name === 'crashy__echo');
    }, 10_000, 'crashy\'s tools');
    expect(tools.find((t) => t.name === 'crashy__echo')).toEqual({
      name: 'crashy__echo',
      description: 'Echo the text back.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      kind: 'other',
      // echo says readOnlyHint, but the config does not mark crashy trusted: the hint counts for nothing.
      access: 'execute',
      origin: 'mcp',
      server: 'crashy',
    });

    // Text and rich content pass through: to the model, and to the client as ACP content.
    replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_echo', name: 'crashy__echo', arguments: { text: 'hi' } },
        { id: 'call_pic', name: 'crashy__picture', arguments: {} },
      ]),
    });
    replay.enqueue({ body: chatCompletionSse(['Done.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo hi' }] })).toEqual({ stopReason: 'end_turn' });
    expect(toolResultText(replay.requests[1]!.body, 'call_echo')).toBe('echo: hi');
    const picture = peer.updates(sessionId).find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_pic' && u.status === 'completed');
    expect(picture.content).toEqual([
      { type: 'content', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      { type: 'content', content: { type: 'resource', resource: { uri: 'file:///notes.md', text: '# Notes', mimeType: 'text/markdown' } } },
    ]);

    // The server crashes mid-call; the next call, while it restarts, fails clearly.
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_crash', name: 'crashy__crash', arguments: {} }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_soon', name: 'crashy__echo', arguments: { text: 'soon' } }]) });
    replay.enqueue({ body: chatCompletionSse(['It crashed.']) });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'crash it' }] });
    expect(toolResultText(replay.requests[3]!.body, 'call_crash')).toMatch(/MCP server "crashy" crashed while running "crash"; it is restarting, try again shortly\.$/);
    expect(toolResultText(replay.requests[4]!.body, 'call_soon')).toMatch(/MCP server "crashy" is restarting after a crash; try again shortly\.$/);

    // After the restart (1 s backoff) a call works again, on a new server process.
    await until(() => /MCP server crashy restarted with 5 tool\(s\)/.test(daemon.stderr()), 10_000, 'the restart');
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_back', name: 'crashy__echo', arguments: { text: 'back' } }]) });
    replay.enqueue({ body: chatCompletionSse(['Back.']) });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    expect(toolResultText(replay.requests[6]!.body, 'call_back')).toBe('echo: back');
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(2);
    // The server's stderr is in the daemon log, never on stdout (the protocol stream).
    expect(daemon.stderr()).toMatch(/agentd: mcp crashy: crashy-server \d+ starting/);
    expect(daemon.peer.rawLines.every((line) => JSON.parse(line).jsonrpc === '2.0')).toBe(true);
  });

  it('runs a session\'s own MCP servers for that session only and stops them when it closes', async () => {
    const { peer } = daemon;
    const own = { name: 'own', command: process.execPath, args: [FIXTURE], env: [{ name: 'MCP_START_LOG', value: join(workspace, 'own.log') }] };
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [own] });
    const other = (await peer.call('session/new', { cwd: workspace, mcpServers: [] })).sessionId;
    const names = async (id: string): Promise<string[]> => (await peer.call('tools/list', { sessionId: id })).tools.map((t: { name: string }) => t.name);
    await until(async () => (await names(sessionId)).includes('own__echo') && (await names(sessionId)).includes('crashy__echo'), 10_000, 'both servers\' tools');
    expect(await names(sessionId)).toEqual(expect.arrayContaining(['own__echo', 'crashy__echo']));
    expect(await names(other)).not.toContain('own__echo');

    const pid = Number(readFileSync(join(workspace, 'own.log'), 'utf8').trim());
    await peer.call('session/close', { sessionId });
    expect(await names(sessionId)).not.toContain('own__echo');
    await until(() => !isAlive(pid), 10_000, 'the session\'s server to exit');

    const sse = await peer.request('session/new', { cwd: workspace, mcpServers: [{ type: 'sse', name: 'old', url: 'http://127.0.0.1:1/sse', headers: [] }] });
    expect(sse.error).toMatchObject({ code: -32602, message: expect.stringMatching(/mcpServers\[0\]: MCP server "old" uses the legacy SSE transport/) });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
