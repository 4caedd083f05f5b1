import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import type { BuiltDaemonContext } from '../../src/daemon/create-daemon-context.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from '../support/in-process-daemon.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { STORE_IMPLEMENTATIONS, type StoreDatabase } from '../support/store-implementations.js';

// The same code paths on the SQLite default (one daemon) as on PostgreSQL.
describe.each(STORE_IMPLEMENTATIONS)('a daemon in the cluster of its $name store', (implementation) => {
  if (!implementation.available()) return;
  let replay: ReplayServer;
  let home: ReturnType<typeof makeHome>;
  let workspace: string;
  let database: StoreDatabase;
  let daemon: InProcessDaemon | undefined;

  beforeEach(async () => {
    replay = await startReplayServer();
    home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1` } } });
    workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    database = await implementation.create({ sqliteFile: resolveAgentdPaths(daemonEnv(home.home)).databaseFile });
  });

  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
    await replay.close();
    await database.dispose();
    home.cleanup();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('renews its heartbeat by itself only where other daemons could read it (PostgreSQL), never writing every few seconds to a SQLite file', async () => {
    daemon = startInProcessDaemon(daemonEnv(home.home, database.daemonEnv), process.cwd());
    const context = (await daemon.context()) as BuiltDaemonContext;
    const cluster = context.sessions.store.cluster;
    const first = (await cluster.listDaemons())[0]!.heartbeatAt;
    // A store for one daemon only says so; the keeper's timer (every third of the 10 s lease) runs on a shared one.
    expect(cluster.shared).toBe(implementation.name === 'postgres');
    if (cluster.shared) {
      await expect.poll(async () => (await cluster.listDaemons())[0]!.heartbeatAt, { timeout: 10_000, interval: 250 }).not.toBe(first);
    } else {
      // Longer than the keeper's interval; the registration's heartbeat is the only one.
      await new Promise((resolve) => setTimeout(resolve, 3_600));
      expect((await cluster.listDaemons())[0]!.heartbeatAt).toBe(first);
    }
  });

  it('registers itself, holds a session only while its turn runs, and is forgotten at a clean shutdown', async () => {
    daemon = startInProcessDaemon(daemonEnv(home.home, database.daemonEnv), process.cwd());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const context = (await daemon.context()) as BuiltDaemonContext;
    const cluster = context.sessions.store.cluster;
    const daemonId = context.cluster.daemonId;
    expect(daemonId).toMatch(/^dmn_[0-9a-f]{16}$/);
    expect((await cluster.listDaemons()).map((d) => [d.id, d.alive, d.leaseMs, d.concurrency, d.roots])).toEqual([[daemonId, true, 10_000, 8, []]]);

    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    const running = daemon.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    await expect.poll(() => replay.requests.length).toBe(1);
    expect((await cluster.listDaemons())[0]!.sessionsOwned).toEqual([sessionId]);
    expect(await cluster.leaseOf(sessionId)).toMatchObject({ owner: daemonId, epoch: 1, live: true });
    // The keeper's heartbeat counts the running turn.
    await context.cluster.keeper.tick();
    expect((await cluster.listDaemons())[0]!.runningTurns).toBe(1);

    daemon.peer.notify('session/cancel', { sessionId });
    expect((await running).result).toMatchObject({ stopReason: 'cancelled' });
    await expect.poll(async () => (await cluster.leaseOf(sessionId))?.owner).toBeNull();
    expect((await cluster.listDaemons())[0]!.sessionsOwned).toEqual([]);

    // Removed from the registry under it (by an operator), it joins again at its next heartbeat.
    await cluster.forgetDaemon(daemonId);
    expect(await cluster.listDaemons()).toEqual([]);
    await context.cluster.keeper.tick();
    expect((await cluster.listDaemons()).map((d) => d.id)).toEqual([daemonId]);

    await daemon.close();
    daemon = undefined;
    const store = await database.open();
    try {
      expect(await store.cluster.listDaemons()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
