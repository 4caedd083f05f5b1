import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonClusterResponse } from '../../protocol/index.js';
import { chatCompletionSse } from '../support/chat-completion-sse.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';
import { startDaemonsOnOneDatabase } from '../support/daemons-on-one-database.js';
import { startInProcessDaemon } from '../support/in-process-daemon.js';
import { POSTGRES } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

describe('daemon/cluster: the store in use, its daemons and the queue', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('on the SQLite default: the file, this one daemon, the in-process queue', async () => {
    const home = makeHome();
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const daemon = startInProcessDaemon(daemonEnv(home.home), workspace);
    cleanups.push(() => daemon.close());
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const cluster = (await daemon.peer.call('daemon/cluster', {})) as DaemonClusterResponse;
    expect(cluster.store).toEqual({ type: 'sqlite', location: join(home.home, 'data', 'agentd.db') });
    expect(cluster.daemons).toHaveLength(1);
    expect(cluster.daemons[0]).toMatchObject({ id: cluster.daemonId, self: true, alive: true, pid: process.pid, concurrency: 8, queuedRunning: 0, sessionsOwned: [] });
    expect(cluster.queue).toEqual({ kind: 'in-process', waiting: 0, heldHere: 0 });
  });

  it.skipIf(!requireProgram(POSTGRES))('on PostgreSQL: the database with its password hidden, every daemon sharing it with the sessions each owns, the pg-boss queue', async () => {
    const { daemons, workspace, replay } = await startDaemonsOnOneDatabase(cleanups, 2);
    const [one, two] = daemons as [(typeof daemons)[0], (typeof daemons)[0]];
    await one.peer.call('initialize', { protocolVersion: 1 });
    await two.peer.call('initialize', { protocolVersion: 1 });
    const fromOne = (await one.peer.call('daemon/cluster', {})) as DaemonClusterResponse;
    const fromTwo = (await two.peer.call('daemon/cluster', {})) as DaemonClusterResponse;
    expect(fromOne.store.type).toBe('postgres');
    expect(fromOne.store.location).toMatch(/^postgres:\/\/agentd_test@localhost\/test_\d+_\d+\?host=/);
    expect(fromOne.daemons.map((daemon) => daemon.id).sort()).toEqual([fromOne.daemonId, fromTwo.daemonId].sort());
    expect(fromOne.daemons.filter((daemon) => daemon.self).map((daemon) => daemon.id)).toEqual([fromOne.daemonId]);
    expect(fromTwo.daemons.filter((daemon) => daemon.self).map((daemon) => daemon.id)).toEqual([fromTwo.daemonId]);
    expect(fromOne.daemons.every((daemon) => daemon.alive)).toBe(true);
    expect(fromOne.queue).toEqual({ kind: 'pg-boss', waiting: 0, heldHere: 0 });
    // A session with a running turn is owned by the daemon running it, as the other sees.
    const { sessionId } = (await one.peer.call('session/new', { cwd: workspace, mcpServers: [] })) as { sessionId: string };
    replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    const turn = one.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'a long question' }] }, 60_000);
    const ownedByOne = async () =>
      ((await two.peer.call('daemon/cluster', {})) as DaemonClusterResponse).daemons.find((daemon) => daemon.id === fromOne.daemonId)?.sessionsOwned;
    await expect.poll(ownedByOne).toEqual([sessionId]);
    one.peer.notify('session/cancel', { sessionId });
    expect((await turn).result).toMatchObject({ stopReason: 'cancelled' });
    await expect.poll(ownedByOne).toEqual([]);

    // A queued prompt running is counted on the daemon that took it (and owns its session), as either daemon sees.
    replay.enqueue({ body: chatCompletionSse(['Still thinking']), stallAfterBytes: 20 });
    await one.peer.call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'queued' }], _meta: { agentd: { queue: true } } });
    const running = async () =>
      ((await two.peer.call('daemon/cluster', {})) as DaemonClusterResponse).daemons.map((daemon) => [daemon.queuedRunning, daemon.sessionsOwned.length]).sort();
    await expect.poll(running).toEqual([[0, 0], [1, 1]]);
    await one.peer.call('session/abort', { sessionId });
    await expect.poll(running).toEqual([[0, 0], [0, 0]]);
  });
});
