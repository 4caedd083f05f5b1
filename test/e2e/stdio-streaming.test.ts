import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentdMeta } from '../support/agentd-meta.js';

describe('agentd serve --stdio', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let daemon: DaemonChild;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    daemon = spawnDaemon(['serve', '--stdio'], daemonEnv(home.home));
  });

  afterEach(async () => {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('streams a chat-completions answer as agent_message_chunk updates and ends the turn', async () => {
    const pieces = ['Hel', 'lo', ', wor', 'ld — ', 'naïve ✓'];
    replay.enqueue({ body: chatCompletionSse(pieces), chunking: 'bytewise' });
    const { peer } = daemon;

    const init = await peer.call('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities!.loadSession).toBe(true);
    expect(agentdMeta(init).version).toMatch(/^\d+\.\d+\.\d+/);

    const created = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    const { sessionId } = created;
    expect(['bubblewrap', 'none']).toContain(agentdMeta(created).sandbox.mode);
    expect(created.modes!.currentModeId).toBe('build');
    const result = await peer.call('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Say hello' },
        { type: 'resource_link', name: 'notes.md', uri: `file://${workspace}/notes.md` },
      ],
    });
    expect(result).toEqual({ stopReason: 'end_turn' });

    const chunks = peer.updates(sessionId).filter((u) => u.sessionUpdate === 'agent_message_chunk');
    // Pieces that reach the daemon in one read of the body go out as one chunk (the first
    // request's body may all be waiting by the time it is read), so the text must match exactly.
    expect(chunks.map((c) => c.content.text).join('')).toBe(pieces.join(''));
    expect(new Set(chunks.map((c) => c.messageId)).size).toBe(1);
    const usage = peer.updates(sessionId).find((u) => u.sessionUpdate === 'usage_update');
    expect(usage).toMatchObject({ used: 12 + pieces.length });

    // The provider got the prompt as a user message, the link as a reference, streaming on.
    const sent = replay.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    const body = sent.body as { stream: boolean; model: string; messages: Array<{ role: string; content: unknown }> };
    expect(body.stream).toBe(true);
    expect(body.model).toBe('e2e-model');
    expect(JSON.stringify(body.messages.at(-1))).toContain('Say hello');
    expect(JSON.stringify(body.messages.at(-1))).toContain(`file://${workspace}/notes.md`);
  });

  it('answers LSP Content-Length framing in the same framing', async () => {
    replay.enqueue({ body: chatCompletionSse(['ok']) });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: 1 } });
    let out = '';
    daemon.child.stdout.removeAllListeners('data');
    daemon.child.stdout.on('data', (text: string) => {
      out += text;
    });
    daemon.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no framed answer: ${out}`)), 10_000);
      const poll = setInterval(() => {
        const match = /^Content-Length: (\d+)\r\n\r\n/.exec(out);
        if (match && Buffer.byteLength(out) >= match[0].length + Number(match[1])) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }
      }, 10);
    });
    const [, length, rest] = /^Content-Length: (\d+)\r\n\r\n([\s\S]*)$/.exec(out)!;
    expect(Buffer.byteLength(rest!)).toBe(Number(length));
    expect(JSON.parse(rest!)).toMatchObject({ jsonrpc: '2.0', id: 7, result: { protocolVersion: 1 } });
  });

  it('writes nothing but protocol messages on stdout', async () => {
    replay.enqueue({ body: chatCompletionSse(['a', 'b']) });
    const { peer } = daemon;
    await peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'x' }] });
    for (const line of peer.rawLines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
  });
});
