import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { chatToolCallSse } from '../support/chat-tool-call-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { runCli } from '../support/run-cli.js';

describe('agentd run', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('streams the answer to stdout from a provider given only in config, with --model and --cwd', async () => {
    const configured = makeHome({ providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    replay.enqueue({ body: chatCompletionSse(['4', '2']) });
    const result = await runCli(['run', '--model', 'local/tiny', '--cwd', workspace, 'what is 6*7?'], daemonEnv(configured.home));
    configured.cleanup();
    // A model missing from the catalog still works, with one warning on stderr.
    expect(result.stderr).toMatch(/local\/tiny is not in the catalog/);
    expect(result.stdout).toBe('42\n');
    expect(result.code).toBe(0);
    expect((replay.requests[0]!.body as { model: string }).model).toBe('tiny');
    expect(JSON.stringify(replay.requests[0]!.body)).toContain(workspace);
  });

  it('needs only OPENAI_BASE_URL and OPENAI_MODEL for a local OpenAI-compatible server', async () => {
    replay.enqueue({ body: chatCompletionSse(['local ', 'hello']) });
    const result = await runCli(['run', 'hi'], daemonEnv(home.home, { OPENAI_BASE_URL: `${replay.url}/v1`, OPENAI_MODEL: 'qwen3:8b' }));
    expect(result.stdout).toBe('local hello\n');
    expect(result.code).toBe(0);
    expect(replay.requests[0]!.path).toBe('/v1/chat/completions');
    expect((replay.requests[0]!.body as { model: string }).model).toBe('qwen3:8b');
  });

  it('runs tools headless: reads freely, and a write follows --permission-mode since nobody can be asked', async () => {
    const configured = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    writeFileSync(join(workspace, 'notes.txt'), 'remember the milk\n');
    const write = { id: 'call_w', name: 'write', arguments: { path: 'out.txt', content: 'done' } };
    replay.enqueue({ body: chatToolCallSse([{ id: 'call_r', name: 'read', arguments: { path: 'notes.txt' } }, write]) });
    replay.enqueue({ body: chatCompletionSse(['ok']) });
    const denied = await runCli(['run', '--cwd', workspace, 'copy notes'], daemonEnv(configured.home));
    expect(denied.code).toBe(0);
    const results = JSON.stringify(replay.requests[1]!.body);
    expect(results).toContain('remember the milk');
    expect(results).toMatch(/no client can be asked/);
    expect(existsSync(join(workspace, 'out.txt'))).toBe(false);

    replay.enqueue({ body: chatToolCallSse([write]) });
    replay.enqueue({ body: chatCompletionSse(['written']) });
    const allowed = await runCli(['run', '--cwd', workspace, '--permission-mode', 'acceptEdits', 'write it'], daemonEnv(configured.home));
    configured.cleanup();
    expect(allowed.stdout).toBe('written\n');
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('done');
  });

  it('reads the prompt from stdin with - and, with --json, prints the public vocabulary: ACP updates, agentd events, a result line', async () => {
    const configured = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    replay.enqueue({ body: chatCompletionSse(['a', 'b']) });
    const result = await runCli(['run', '--json', '-'], daemonEnv(configured.home), { stdin: 'from stdin' });
    configured.cleanup();
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const updates = lines.filter((l) => l.method === 'session/update').map((l) => l.params.update);
    // Pieces that arrive in one read of the vendor's body go out as one chunk: all of them, in order.
    expect(updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content.text).join('')).toBe('ab');
    expect(lines.filter((l) => l.method !== undefined).every((l) => l.jsonrpc === '2.0' && ['session/update', 'agentd/event'].includes(l.method))).toBe(true);
    expect(lines.filter((l) => l.method === 'agentd/event').map((l) => l.params.event.type)).toContain('turn_end');
    const sessionId = lines[0].params.sessionId;
    expect(lines.at(-1)).toEqual({ result: { sessionId, stopReason: 'end_turn' } });
    expect(JSON.stringify(replay.requests[0]!.body)).toContain('from stdin');
  });

  it('with no provider configured fails and lists the ways to configure one', async () => {
    const result = await runCli(['run', 'hello'], daemonEnv(home.home));
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no model is configured/);
    expect(result.stderr).toMatch(/ANTHROPIC_API_KEY/);
    expect(result.stderr).toContain(join(home.home, 'config', 'config.json'));
    expect(result.stderr).toMatch(/Ollama/);
  });

  it('leaves no empty session behind when the prompt never reached a model (no provider, an unknown one)', async () => {
    const env = daemonEnv(home.home);
    expect((await runCli(['run', 'hello'], env)).code).toBe(3);
    expect((await runCli(['run', '--model', 'nosuch/x', 'hello'], env)).code).toBe(3);
    expect(await runCli(['sessions', '--json'], env)).toMatchObject({ code: 0, stdout: '' });
  });

  it('refuses a prompt over the frame limit before sending it, naming server.maxFrameBytes and its value', async () => {
    const configured = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, server: { maxFrameBytes: 65_536 } });
    try {
      const result = await runCli(['run', '-'], daemonEnv(configured.home), { stdin: 'x'.repeat(100_000) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/the prompt makes a message of \d+ bytes, over the daemon's frame limit server\.maxFrameBytes = 65536 bytes/);
      expect(result.stderr).not.toMatch(/connection closed/);
      expect(replay.requests).toHaveLength(0);
      expect((await runCli(['sessions', '--json'], daemonEnv(configured.home))).stdout).toBe('');
    } finally {
      configured.cleanup();
    }
  });

  it('through a daemon that owns the data directory, a prompt over its frame limit is reported with the daemon\'s reason', { timeout: 30_000 }, async () => {
    const { spawnDaemon, connectWhenListening } = await import('../support/daemon-process.js');
    const configured = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } }, server: { maxFrameBytes: 65_536 } });
    const env = daemonEnv(configured.home);
    const socketPath = join(configured.home, 'agentd.sock');
    const daemon = spawnDaemon(['serve', '--socket', socketPath], env);
    try {
      (await connectWhenListening(socketPath)).close();
      const result = await runCli(['run', '-'], env, { stdin: 'x'.repeat(100_000) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/exceeds the frame limit of 65536 bytes; send smaller messages or raise server\.maxFrameBytes in config\.json/);
      expect(result.stderr).not.toMatch(/connection to agentd closed/);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
      configured.cleanup();
    }
  });

  it('reports a provider failure on stderr with exit code 1', async () => {
    const configured = makeHome({ model: 'local/tiny', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    replay.enqueue({ status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }) });
    const result = await runCli(['run', 'hello'], daemonEnv(configured.home));
    configured.cleanup();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Incorrect API key/);
  });
});
