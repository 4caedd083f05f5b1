import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome, until } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/crashy-server.mjs', import.meta.url));

/**
 * The settings only a trusted project may make (providers, mcpServers, hooks) apply to
 * that project's sessions, on a daemon started elsewhere; the same file in an untrusted
 * project is stripped with a warning, and nothing of it reaches other sessions.
 */
describe('trusted project settings per session', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let root: string;
  let trusted: string;
  let untrusted: string;
  let daemon: InProcessDaemon;

  const projectFile = (dir: string, withModel: boolean): void => {
    mkdirSync(join(dir, '.agentd'), { recursive: true });
    writeFileSync(
      join(dir, '.agentd', 'config.json'),
      JSON.stringify({
        ...(withModel ? { model: 'proj/t-model' } : {}),
        providers: { proj: { type: 'openai-chat', baseUrl: `${replay.url}/project/v1` } },
        mcpServers: { projtools: { command: process.execPath, args: [FIXTURE], env: { MCP_START_LOG: join(dir, 'starts.log') } } },
        hooks: { beforeToolCall: [{ command: "echo 'project hook says no' >&2; exit 2", tools: ['ls'] }] },
      }),
    );
  };

  beforeEach(async () => {
    replay = await startReplayServer();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-trusted-')));
    trusted = join(root, 'trusted');
    untrusted = join(root, 'untrusted');
    projectFile(trusted, true);
    projectFile(untrusted, false);
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/user/v1` } },
      trustedProjects: [trusted],
    });
    // Started in neither project; bypass so the MCP tool's call is not asked.
    daemon = startInProcessDaemon(daemonEnv(home.home), root, { permissionMode: 'bypass' });
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    home.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  async function run(cwd: string): Promise<{ path: string; tools: string[]; echo: string; ls: string }> {
    const { sessionId, _meta } = await daemon.peer.call('session/new', { cwd, mcpServers: [] });
    // Servers start in the background; the answer names those that will start.
    for (const server of agentdMeta({ _meta }).mcpServers as Array<{ name: string }>) {
      const listed = async (): Promise<boolean> => (await daemon.peer.call('tools/list', { sessionId })).tools.some((t: { name: string }) => t.name.startsWith(`${server.name}__`));
      await until(listed, 10_000, `the tools of ${server.name}`);
    }
    const before = replay.requests.length;
    replay.enqueue({
      body: chatToolCallSse([
        { id: 'call_echo', name: 'projtools__echo', arguments: { text: 'hi' } },
        { id: 'call_ls', name: 'ls', arguments: {} },
      ]),
    });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    const first = replay.requests[before]!;
    const tools = ((first.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
    const body = replay.requests[before + 1]!.body;
    return { path: first.path, tools, echo: toolResultText(body, 'call_echo'), ls: toolResultText(body, 'call_ls') };
  }

  it("[F7 per-session-config] (control) a trusted project's providers, MCP servers and hooks serve its own sessions", async () => {
    const result = await run(trusted);
    expect(result.path).toBe('/project/v1/chat/completions');
    expect(result.tools).toContain('projtools__echo');
    expect(result.echo).toBe('echo: hi');
    expect(result.ls).toMatch(/Blocked by a hook: project hook says no/);
    // Run in the project's directory, as the session's own server.
    expect(readFileSync(join(trusted, 'starts.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('[F7 per-session-config] the same file in an untrusted project starts nothing, hooks nothing and uses the user\'s provider', async () => {
    const result = await run(untrusted);
    expect(result.path).toBe('/user/v1/chat/completions');
    expect(result.tools).not.toContain('projtools__echo');
    expect(result.echo).toMatch(/Unknown tool "projtools__echo"/);
    expect(result.ls).not.toMatch(/Blocked by a hook/);
    expect(existsSync(join(untrusted, 'starts.log'))).toBe(false);
    for (const key of ['providers', 'mcpServers', 'hooks']) expect(daemon.stderr()).toContain(`ignored ${key} in ${untrusted}/.agentd/config.json`);
  });

  it("[F7 per-session-config] a trusted project's servers and hooks do not follow into another project's session", async () => {
    await run(trusted);
    const other = join(root, 'other');
    mkdirSync(other);
    const result = await run(other);
    expect(result.path).toBe('/user/v1/chat/completions');
    expect(result.tools).not.toContain('projtools__echo');
    expect(result.ls).not.toMatch(/Blocked by a hook/);
  });
});
