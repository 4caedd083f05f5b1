import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltDaemonContext } from '../../../src/daemon/create-daemon-context.js';
import { daemonQueue } from '../../../src/daemon/cluster/pg-boss-session-routing.js';
import { daemonEnv, makeHome } from '../../support/daemon-process.js';
import { startInProcessDaemon } from '../../support/in-process-daemon.js';
import { POSTGRES, createTestDatabase } from '../../support/postgres-server.js';
import { requireProgram } from '../../support/required-program.js';

/*
 * What a daemon that died leaves in the database (its registry row, a turn left running,
 * its pg-boss queue) is cleared by a live daemon, on a real PostgreSQL. The dead daemon is
 * written into the database as a killed one leaves it: registered, its heartbeat old.
 */
describe.skipIf(!requireProgram(POSTGRES))('a live daemon clearing up after gone daemons', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('forgets a daemon silent for three leases, marks its running turn interrupted and removes its queue and queues of unknown daemons', async () => {
    const url = await createTestDatabase();
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    const home = makeHome({ cluster: { leaseMs: 1000 } });
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
    cleanups.push(async () => {
      await daemon.close();
      home.cleanup();
      rmSync(workspace, { recursive: true, force: true });
    });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const context = (await daemon.context()) as BuiltDaemonContext;
    const { store } = context.sessions;
    const { sessionId } = await daemon.peer.call('session/new', { cwd: workspace, mcpServers: [] });
    await daemon.peer.call('session/close', { sessionId });

    // The dead daemon: registered, holding the session with a turn running, its queue made; then silent.
    const dead = 'dmn_00000000000dead1';
    const unknown = 'dmn_0000000000000bad';
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, max: 1 });
    boss.on('error', () => undefined);
    await boss.start();
    cleanups.push(() => boss.stop({ graceful: false, close: true }));
    await boss.createQueue(daemonQueue(dead), { name: daemonQueue(dead), policy: 'standard', retryLimit: 0 });
    await boss.createQueue(daemonQueue(unknown), { name: daemonQueue(unknown), policy: 'standard', retryLimit: 0 });
    await boss.send(daemonQueue(dead), { kind: 'cancel', sessionId });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.push(() => db.end());
    await db.query(`INSERT INTO daemons (id, host, pid, roots, concurrency, lease_ms, started_at, heartbeat_at, running_turns)
                    VALUES ($1, 'lost-host', 4242, '[]', 8, 1000, now() - interval '1 minute', now() - interval '5 seconds', 1)`, [dead]);
    await db.query(`INSERT INTO session_leases (session_id, owner, epoch, expires_at) VALUES ($1, $2, 7, now() - interval '4 seconds')
                    ON CONFLICT (session_id) DO UPDATE SET owner = $2, epoch = 7, expires_at = now() - interval '4 seconds'`, [sessionId, dead]);
    await db.query(`INSERT INTO turns (id, session_id, status, started_at) VALUES ('turn_of_the_dead', $1, 'running', $2)`, [sessionId, new Date().toISOString()]);

    const queues = async () => (await boss.getQueues()).map((queue) => queue.name).filter((name) => name.startsWith('agentd-daemon-')).sort();
    await expect.poll(async () => (await store.cluster.listDaemons()).map((d) => d.id), { timeout: 20_000 }).toEqual([context.cluster.daemonId]);
    expect(await store.listTurns(sessionId)).toEqual([expect.objectContaining({ id: 'turn_of_the_dead', status: 'interrupted', error: expect.stringContaining(`${dead} stopped renewing`) })]);
    expect(await store.cluster.leaseOf(sessionId)).toMatchObject({ owner: null, epoch: 8 });
    await expect.poll(queues, { timeout: 20_000 }).toEqual([daemonQueue(context.cluster.daemonId)]);
    expect(daemon.stderr()).toContain(`forgot daemon ${dead} (lost-host, pid 4242)`);
  }, 60_000);
});
