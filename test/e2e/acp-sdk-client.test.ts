import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { CLI, daemonEnv, makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** Splits tapped bytes into lines, for checking the raw wire. */
function lineTap(): { push(chunk: Uint8Array): void; lines: string[] } {
  let pending = '';
  const decoder = new TextDecoder();
  const lines: string[] = [];
  return {
    lines,
    push(chunk) {
      pending += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (line.trim()) lines.push(line);
      }
    },
  };
}

describe('an unmodified ACP client (the official SDK)', () => {
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    await replay.close();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('initializes, creates a session, prompts, streams, cancels; every daemon message is valid ACP', async () => {
    const child = spawn(process.execPath, [CLI, 'acp'], { env: daemonEnv(home.home), stdio: 'pipe' });
    const sent = lineTap();
    const received = lineTap();
    const toDaemon = new WritableStream<Uint8Array>({
      write(chunk) {
        sent.push(chunk);
        child.stdin.write(chunk);
      },
      close() {
        child.stdin.end();
      },
    });
    const fromDaemon = new ReadableStream<Uint8Array>({
      start(controller) {
        child.stdout.on('data', (chunk: Buffer) => {
          received.push(chunk);
          controller.enqueue(new Uint8Array(chunk));
        });
        child.stdout.once('end', () => {
          try {
            controller.close();
          } catch {
            // The SDK cancelled the stream when the connection closed.
          }
        });
      },
    });

    const updates: acp.SessionNotification[] = [];
    replay.enqueue({ body: chatCompletionSse(['Hello ', 'from ', 'agentd']), chunking: 'bytewise' });
    replay.enqueue({ body: chatCompletionSse(Array.from({ length: 400 }, (_, i) => `w${i} `)), chunking: 'bytewise', delayMs: 2 });

    try {
      await acp
        .client({ name: 'acp-sdk-test' })
        .onNotification('session/update', ({ params }) => {
          updates.push(params);
        })
        .connectWith(acp.ndJsonStream(toDaemon, fromDaemon), async (ctx) => {
          const init = await ctx.request('initialize', {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            clientInfo: { name: 'acp-sdk-test', version: '1.0.0' },
          });
          expect(init.protocolVersion).toBe(1);
          expect(init.agentInfo?.name).toBe('agentd');

          const { sessionId } = await ctx.request('session/new', { cwd: workspace, mcpServers: [] });
          const done = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
          expect(done.stopReason).toBe('end_turn');
          const text = updates
            .filter((n) => n.update.sessionUpdate === 'agent_message_chunk')
            .map((n) => (n.update as { content: { text: string } }).content.text)
            .join('');
          expect(text).toBe('Hello from agentd');

          const slow = ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'count slowly' }] });
          const before = updates.length;
          await new Promise<void>((resolve) => {
            const poll = setInterval(() => {
              if (updates.length > before) {
                clearInterval(poll);
                resolve();
              }
            }, 5);
          });
          await ctx.notify('session/cancel', { sessionId });
          expect((await slow).stopReason).toBe('cancelled');

          const listed = await ctx.request('session/list', { cwd: workspace });
          expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
        });
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const { readdirSync, readFileSync } = await import('node:fs');
      // Stop the shared daemon the bridge started for this test's AGENTD_HOME.
      for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        try {
          const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
          if (cmd.includes(join(home.home, 'run', 'agentd.sock'))) process.kill(Number(entry), 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
    }

    expect(received.lines.length).toBeGreaterThan(5);
    expect(validateDaemonWire(sent.lines, received.lines)).toEqual([]);
  });
});
