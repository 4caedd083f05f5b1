import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';

describe('queue delivery modes', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('are owned by the session, stored with it, and back after a restart', async () => {
    const home = makeHome({});
    cleanups.push(() => home.cleanup());
    const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
    cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
    const options = { cwd: workspace, env: daemonEnv(home.home), version: 'test', write: () => {} };

    const first = await startDaemon(options);
    const session = await first.daemon.sessions.create({ cwd: workspace });
    expect([session.deliveryMode('steering'), session.deliveryMode('followUp')]).toEqual(['all', 'oneAtATime']);
    await session.setDeliveryMode('steering', 'oneAtATime');
    await session.setDeliveryMode('followUp', 'all');
    const id = session.id;
    await first.shutdown();

    const second = await startDaemon(options);
    cleanups.push(() => second.shutdown());
    const loaded = await second.daemon.sessions.open(id);
    expect([loaded.deliveryMode('steering'), loaded.deliveryMode('followUp')]).toEqual(['oneAtATime', 'all']);
    // Other settings kept in the record's meta survive the change.
    expect((await second.daemon.sessions.record(id)).meta).toMatchObject({ deliveryModes: { steering: 'oneAtATime', followUp: 'all' } });
  });
});
