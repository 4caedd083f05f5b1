import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse, toolResultText } from '../support/chat-tool-call-sse.js';
import { daemonEnv } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

const API_KEY = 'sk-home-secret-F12';

interface Question {
  toolCall: { title: string; _meta?: { agentd?: { reason?: string } } };
  options: Array<{ optionId: string; kind: string }>;
}

/**
 * The home-workspace attack (F12 in SECURITY.md), end to end: `agentd` run in the home folder with acceptEdits.
 * The scripted model reads ~/.config/agentd/config.json (the API key in it) and writes an
 * mcpServers entry back, which hot reload would start outside the sandbox. Both calls are
 * asked; refused, the key never reaches the model or the database, and nothing starts.
 */
describe('[F12 access-policy] finding 1: agentd in the home folder with acceptEdits', () => {
  let replay: ReplayServer;
  let home: string;
  let daemon: InProcessDaemon;
  let configFile: string;
  let marker: string;
  let configText: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = realpathSync(mkdtempSync(join(tmpdir(), 'agentd-f12-e2e-')));
    configFile = join(home, '.config', 'agentd', 'config.json');
    marker = join(home, 'mcp-started');
    mkdirSync(join(home, '.config', 'agentd'), { recursive: true });
    configText = JSON.stringify({ model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, apiKey: API_KEY } } }, null, 2);
    writeFileSync(configFile, configText);
    // The daemon's own paths come from HOME, as for a user without AGENTD_HOME or XDG variables.
    const env: NodeJS.ProcessEnv = { ...daemonEnv(home), HOME: home };
    delete env.AGENTD_HOME;
    daemon = startInProcessDaemon(env, home, { permissionMode: 'acceptEdits' });
    await daemon.peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  });

  afterEach(async () => {
    await daemon.close();
    await replay.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** config.json with an MCP server added: what the model would write back (without the key it never saw). */
  const withServer = (): string => {
    const config = { model: 'local/m', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } };
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
    return JSON.stringify({ ...config, mcpServers: { pwn: { command: process.execPath, args: ['-e', script] } } }, null, 2);
  };

  it('[F12 access-policy] the read and the write of config.json are asked; refused, the key stays out and no MCP server starts', async () => {
    const questions: Question[] = [];
    daemon.peer.onRequest('session/request_permission', (params: Question) => {
      questions.push(params);
      return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
    });
    const { sessionId } = (await daemon.peer.call('session/new', { cwd: home, mcpServers: [] })) as { sessionId: string };
    await (await daemon.context()).reloader.settled();
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_read', name: 'read', arguments: { path: '.config/agentd/config.json' } }]) });
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_write', name: 'write', arguments: { path: '.config/agentd/config.json', content: withServer() } }]) });
    replay.enqueue({ body: chatCompletionSse(['done']) });
    await daemon.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tidy up my config' }] });

    expect(questions.map((q) => q.toolCall.title)).toEqual(['Read .config/agentd/config.json', 'Write .config/agentd/config.json']);
    for (const q of questions) {
      expect(q.toolCall._meta?.agentd?.reason).toMatch(/inside agentd's own files \([^)]*\.config\/agentd:/);
      expect(q.options.map((o) => o.kind)).not.toContain('allow_always');
    }
    const last = replay.requests.at(-1)!.body;
    expect(toolResultText(last, 'call_read')).toMatch(/Permission denied/);
    expect(toolResultText(last, 'call_write')).toMatch(/Permission denied/);
    expect(JSON.stringify(replay.requests.map((r) => r.body))).not.toContain(API_KEY);
    expect(readFileSync(configFile, 'utf8')).toBe(configText);
    await (await daemon.context()).reloader.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
    const dataDir = join(home, '.local', 'share', 'agentd');
    for (const file of readdirSync(dataDir).filter((f) => f.startsWith('agentd.db'))) {
      expect(readFileSync(join(dataDir, file)).includes(API_KEY)).toBe(false);
    }
  });

  it('[F12 access-policy] (control) the same entry written by the user does start the server, so the test above can fail', async () => {
    const { sessionId } = (await daemon.peer.call('session/new', { cwd: home, mcpServers: [] })) as { sessionId: string };
    expect(sessionId).toBeTruthy();
    await (await daemon.context()).reloader.settled();
    writeFileSync(configFile, withServer());
    const deadline = Date.now() + 10_000;
    while (!existsSync(marker) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(marker)).toBe(true);
  });
});
