import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

/*
 * Two `agentd serve` processes (each its own home) on one PostgreSQL database: one is
 * SIGKILLed mid-turn, leaving its lease behind; the other runs the session's next prompt
 * once that lease expires, with every committed message, and the cut turn marked.
 */
describe.skipIf(!requireProgram(POSTGRES))('a daemon of a cluster killed with SIGKILL mid-turn', () => {
  let replay: ReplayServer;
  let url: string;
  let workspace: string;
  const homes: Array<ReturnType<typeof makeHome>> = [];
  const daemons: DaemonChild[] = [];

  beforeEach(async () => {
    replay = await startReplayServer();
    url = await createTestDatabase();
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  });

  afterEach(async () => {
    for (const daemon of daemons.splice(0)) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    await replay.close();
    for (const home of homes.splice(0)) home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function start(): Promise<DaemonChild> {
    const home = makeHome({
      model: 'local/e2e-model',
      providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } },
      store: { type: 'postgres', url },
      cluster: { leaseMs: 1000 },
    });
    homes.push(home);
    const daemon = spawnDaemon(['serve'], daemonEnv(home.home));
    daemons.push(daemon);
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    return daemon;
  }

  it('lets the other daemon run the next prompt once the lease expires, with nothing lost and nothing run twice', async () => {
    const first = await start();
    const second = await start();
    const { sessionId } = await first.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['The answer ', 'is 42.']) });
    expect(await first.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question one' }] })).toEqual({ stopReason: 'end_turn' });

    replay.enqueue({ body: chatCompletionSse(['Working on it']), stallAfterBytes: 20 });
    void first.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question two' }] }).catch(() => undefined);
    await expect.poll(() => replay.requests.length).toBe(2);
    first.child.kill('SIGKILL');
    await first.exited;

    await second.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Back again.']) });
    expect(await second.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question three' }] }, 30_000)).toEqual({
      stopReason: 'end_turn',
    });
    // One request per turn: the killed turn's was not sent again.
    expect(replay.requests).toHaveLength(3);
    const text = JSON.stringify((replay.requests[2]!.body as { messages: unknown[] }).messages);
    for (const piece of ['question one', 'The answer is 42.', 'question two', 'question three']) expect(text).toContain(piece);

    const store = await openPostgresStore(url);
    try {
      const turns = await store.listTurns(sessionId);
      expect(turns.map((turn) => turn.status)).toEqual(['end_turn', 'interrupted', 'end_turn']);
      expect(turns[1]!.error).toMatch(/^daemon dmn_[0-9a-f]{16} stopped renewing its lease while this turn was running$/);
      expect((await store.listMessages(sessionId)).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'user', 'assistant']);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('runs the follow-up and steer the killed daemon held as turns on the others, in the order queued, each once', async () => {
    const first = await start();
    // Two daemons left: both rescue what the first left, and it is queued once.
    const second = await start();
    await start();
    const { sessionId } = await first.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Working on it']), stallAfterBytes: 20 });
    void first.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'question one' }] }).catch(() => undefined);
    await expect.poll(() => replay.requests.length).toBe(1);
    expect(await first.peer.call('session/followUp', { sessionId, prompt: [{ type: 'text', text: 'then follow me' }] })).toEqual({ queued: 1 });
    expect(await first.peer.call('session/steer', { sessionId, prompt: [{ type: 'text', text: 'and steer me' }] })).toEqual({ queued: 1 });
    replay.enqueue({ body: chatCompletionSse(['Followed.']) });
    replay.enqueue({ body: chatCompletionSse(['Steered.']) });
    first.child.kill('SIGKILL');
    await first.exited;

    const store = await openPostgresStore(url);
    try {
      await expect
        .poll(async () => (await store.listTurns(sessionId)).map((turn) => turn.status), { timeout: 30_000, interval: 100 })
        .toEqual(['interrupted', 'end_turn', 'end_turn']);
      expect(replay.requests).toHaveLength(3);
      const asked = (n: number): string => JSON.stringify((replay.requests[n]!.body as { messages: unknown[] }).messages);
      expect(asked(1)).toMatch(/question one.*then follow me/);
      expect(asked(2)).toMatch(/question one.*then follow me.*Followed\..*and steer me/);
      const users = (await store.listMessages(sessionId)).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
      expect(users.map((text) => ['question one', 'then follow me', 'and steer me'].find((piece) => text.includes(piece)))).toEqual([
        'question one',
        'then follow me',
        'and steer me',
      ]);
      expect(await store.pendingPrompts.list(sessionId)).toEqual([]);
      // One job per rescued prompt, though two daemons rescued.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const jobs = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM pgboss.job WHERE name = 'agentd-prompts'`);
        expect(Number(jobs.rows[0]!.n)).toBe(2);
      } finally {
        await client.end();
      }
    } finally {
      await store.close();
    }
    // The session is followed live on the daemon that loads it, with the rescued turns in its history.
    await second.peer.call('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    expect(second.peer.updates(sessionId).filter((u) => u.sessionUpdate === 'agent_message_chunk').map((u) => u.content?.text)).toEqual(['Followed.', 'Steered.']);
  }, 60_000);
});
