import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnAcpBridge } from '../support/acp-bridge-child.js';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { makeHome } from '../support/daemon-process.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

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
    const bridge = spawnAcpBridge(home.home);
    const updates: acp.SessionNotification[] = [];
    replay.enqueue({ body: chatCompletionSse(['Hello ', 'from ', 'agentd']), chunking: 'bytewise' });
    replay.enqueue({ body: chatCompletionSse(Array.from({ length: 400 }, (_, i) => `w${i} `)), chunking: 'bytewise', delayMs: 2 });

    try {
      await acp
        .client({ name: 'acp-sdk-test' })
        .onNotification('session/update', ({ params }) => {
          updates.push(params);
        })
        .connectWith(bridge.stream, async (ctx) => {
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
      await bridge.stop();
    }

    expect(bridge.received.length).toBeGreaterThan(5);
    expect(validateDaemonWire(bridge.sent, bridge.received)).toEqual([]);
  });
});
