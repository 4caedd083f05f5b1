import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnAcpBridge } from '../support/acp-bridge-child.js';
import { validateDaemonWire } from '../support/acp-wire-validator.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { makeHome, until } from '../support/daemon-process.js';
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

  it('shows an MCP server that cannot start as a failed tool call, once, again after session/load, and never to the model', async () => {
    // A config server and the session's own, neither of which exists.
    home.cleanup();
    home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      mcpServers: { broken: { command: join(workspace, 'no-such-config-server') } },
    });
    const own = { name: 'gone', command: join(workspace, 'no-such-client-server'), args: [], env: [] };
    const init = {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'acp-sdk-test', version: '1.0.0' },
    };
    const failures = (updates: acp.SessionNotification[], server: string): acp.SessionNotification['update'][] =>
      updates.map((n) => n.update).filter((u) => u.sessionUpdate === 'tool_call' && u.title === `Start MCP server ${server}`);
    const expectFailed = (update: acp.SessionNotification['update'] | undefined, server: string, fix: RegExp): void => {
      expect(update).toMatchObject({ sessionUpdate: 'tool_call', title: `Start MCP server ${server}`, kind: 'other', status: 'failed' });
      const text = (update as { content: Array<{ content: { text: string } }> }).content[0]!.content.text;
      expect(text).toMatch(new RegExp(`^MCP server ${server} failed to start: .*ENOENT`));
      expect(text).toMatch(fix);
    };

    const first = spawnAcpBridge(home.home);
    const updates: acp.SessionNotification[] = [];
    replay.enqueue({ body: chatCompletionSse(['First.']) });
    replay.enqueue({ body: chatCompletionSse(['Second.']) });
    let sessionId = '';
    let seenLive = 0;
    try {
      await acp
        .client({ name: 'acp-sdk-test' })
        .onNotification('session/update', ({ params }) => {
          updates.push(params);
        })
        .connectWith(first.stream, async (ctx) => {
          await ctx.request('initialize', init);
          ({ sessionId } = await ctx.request('session/new', { cwd: workspace, mcpServers: [own] }));
          // The session's own server is shown as soon as it fails; the config server's
          // failure (from before the session existed) at its first prompt.
          await until(() => failures(updates, 'gone').length > 0, 10_000, 'the failure of the session\'s server');
          expect((await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn');
          expect((await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] })).stopReason).toBe('end_turn');
          seenLive = updates.length;
          // Loaded again (as after a restart of the editor's view): both failures show once more.
          await ctx.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
        });
    } finally {
      await first.stop();
    }
    const live = updates.slice(0, seenLive);
    const loaded = updates.slice(seenLive);
    for (const shown of [live, loaded]) {
      expect(failures(shown, 'gone')).toHaveLength(1);
      expectFailed(failures(shown, 'gone')[0], 'gone', /the MCP server settings of your editor/);
      expect(failures(shown, 'broken')).toHaveLength(1);
      expectFailed(failures(shown, 'broken')[0], 'broken', /"mcpServers" in config\.json/);
    }
    // Never part of the conversation the model sees.
    expect(replay.requests).toHaveLength(2);
    for (const request of replay.requests) {
      const body = JSON.stringify(request.body);
      for (const word of ['Start MCP server', 'no-such-config-server', 'no-such-client-server']) expect(body).not.toContain(word);
    }
    expect(validateDaemonWire(first.sent, first.received)).toEqual([]);

  });
});
