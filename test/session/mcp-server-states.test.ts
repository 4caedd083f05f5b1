import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/tools/shell/kill-process-group.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

const HANGS = fileURLToPath(new URL('../fixtures/mcp/hangs-in-initialize.mjs', import.meta.url));
const CRASHY = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));

/** What a client sees of MCP servers: session/new answers at once with their states, then events and notices follow. */
describe('MCP server states', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: InProcessDaemon;

  beforeEach(async () => {
    replay = await startReplayServer();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      // Never answers initialize: it must hold up no answer, and a prompt only up to its limit.
      mcpServers: { hung: { command: process.execPath, args: [HANGS], env: { MCP_PID_FILE: join(workspace, 'hung.pids') }, startupTimeoutMs: 1500 } },
    });
    daemon = startInProcessDaemon(daemonEnv(home.home), process.cwd(), { permissionMode: 'bypass' });
    await daemon.peer.call('initialize', { protocolVersion: 1, _meta: { agentd: { events: true } } });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  const daemonEvents = (name: string): Array<Record<string, unknown>> =>
    daemon.peer.received.filter((m) => m.method === 'agentd/daemonEvent' && m.params.event.type === 'mcp_server' && m.params.event.name === name).map((m) => m.params.event);

  it('answers session/new while a server hangs in initialize, and a prompt runs with the tools ready by its startup limit', async () => {
    const { peer } = daemon;
    const own = { name: 'crashy', command: process.execPath, args: [CRASHY], env: [] };
    const answer = await peer.call('session/new', { cwd: workspace, mcpServers: [own] });
    expect(agentdMeta(answer).mcpServers).toEqual([
      { name: 'hung', state: 'starting', tools: [] },
      { name: 'crashy', state: 'starting', tools: [] },
    ]);
    const { sessionId } = answer;
    await until(() => daemonEvents('crashy').some((e) => e.state === 'running'), 10_000, 'crashy to run');
    expect(daemonEvents('crashy')).toEqual([
      { type: 'mcp_server', name: 'crashy', sessionId, state: 'starting', tools: 0 },
      { type: 'mcp_server', name: 'crashy', sessionId, state: 'running', tools: 5 },
    ]);
    expect(daemonEvents('hung')).toEqual([{ type: 'mcp_server', name: 'hung', state: 'starting', tools: 0 }]);

    // The hung server's tools never come (the turn waited up to its limit); crashy's are there, and the turn runs.
    replay.enqueue({ body: chatCompletionSse(['Hello.']) });
    expect(await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    const offered = (replay.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name);
    expect(offered).toContain('crashy__echo');
    expect(offered.some((name) => name.startsWith('hung__'))).toBe(false);

    // A later answer tells how things stand now.
    const resumed = await peer.call('session/resume', { sessionId, cwd: workspace });
    expect(agentdMeta(resumed).mcpServers).toEqual([
      { name: 'hung', state: 'failed', tools: [], error: expect.stringContaining('did not start within 1500 ms') },
      { name: 'crashy', state: 'running', tools: ['crashy__echo', 'crashy__picture', 'crashy__fail', 'crashy__crash', 'crashy__add_late'] },
    ]);
  });

  it('reports a session\'s server that fails to start: in the daemon event, a failed tool call in the session (again on load), and later answers', async () => {
    const { peer } = daemon;
    const broken = { name: 'broken', command: join(workspace, 'no-such-server'), args: [], env: [] };
    const answer = await peer.call('session/new', { cwd: workspace, mcpServers: [broken] });
    const { sessionId } = answer;
    expect(agentdMeta(answer).mcpServers).toContainEqual({ name: 'broken', state: 'starting', tools: [] });

    await until(() => daemonEvents('broken').some((e) => e.state === 'failed'), 10_000, 'the failure event');
    expect(daemonEvents('broken').at(-1)).toEqual({ type: 'mcp_server', name: 'broken', sessionId, state: 'failed', tools: 0, error: expect.stringContaining('ENOENT') });
    const failed = {
      sessionUpdate: 'tool_call',
      toolCallId: expect.any(String),
      title: 'Start MCP server broken',
      kind: 'other',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: expect.stringMatching(/^MCP server broken failed to start: .*ENOENT.*\. Its tools are not available in this session\. Check its command/) } }],
      rawInput: { server: 'broken' },
    };
    const shown = (): unknown[] => peer.updates(sessionId).filter((u) => u.title === 'Start MCP server broken');
    await until(() => shown().length > 0, 10_000, 'the failure in the session');
    expect(shown()).toEqual([failed]);

    const loaded = await peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(agentdMeta(loaded).mcpServers).toContainEqual({ name: 'broken', state: 'failed', tools: [], error: expect.stringContaining('ENOENT') });
    // The replay shows it again, once.
    expect(shown()).toEqual([failed, failed]);
  });

  it('stops a session\'s server still inside initialize, and its child, when the session closes', async () => {
    const { peer } = daemon;
    const pidFile = join(workspace, 'own.pids');
    const own = { name: 'stuck', command: process.execPath, args: [HANGS], env: [{ name: 'MCP_PID_FILE', value: pidFile }] };
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [own] });
    await until(() => existsSync(pidFile), 10_000, 'the server and its child to run');
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    expect(pids.every(processAlive)).toBe(true);
    await peer.call('session/close', { sessionId });
    await until(() => !pids.some(processAlive), 10_000, 'the server and its child to be gone');
    expect(daemonEvents('stuck').map((e) => e.state)).toEqual(['starting', 'stopped']);
  });

  it('refuses a client stdio server with a relative command, naming it and asking for an absolute path', async () => {
    const reply = await daemon.peer.request('session/new', { cwd: workspace, mcpServers: [{ name: 'rel', command: 'npx', args: ['some-server'], env: [] }] });
    expect(reply.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('mcpServers[0]: MCP server "rel": command "npx" is not an absolute path; give the absolute path of the executable'),
    });
  });
});
