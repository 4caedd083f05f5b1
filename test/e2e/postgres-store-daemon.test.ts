import { afterEach, describe, expect, it } from 'vitest';
import { daemonEnv, makeHome, spawnDaemon, type DaemonChild } from '../support/daemon-process.js';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

/*
 * The `agentd` bin as installed — `serve` restored from the start-up snapshot, which holds
 * the daemon's code but loads `pg` from node_modules only when PostgreSQL is chosen — on a
 * real PostgreSQL: a session made by one daemon is listed by another with its own data directory.
 */
describe.skipIf(!requireProgram(POSTGRES))('agentd serve from the start-up snapshot on PostgreSQL', () => {
  let daemon: DaemonChild | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    daemon?.child.kill();
    await daemon?.exited;
    cleanup?.();
  });

  it('stores a session in PostgreSQL (AGENTD_STORE_URL) and a daemon of another home lists it', async () => {
    const url = await createTestDatabase();
    const home = makeHome({});
    // A second home: nothing of the first daemon's data directory (no SQLite file) is shared.
    const other = makeHome({});
    cleanup = () => {
      home.cleanup();
      other.cleanup();
    };
    daemon = spawnDaemon(['serve', '--stdio'], { ...daemonEnv(home.home), AGENTD_STORE_URL: url });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const { sessionId } = await daemon.peer.call('session/new', { cwd: home.home, mcpServers: [] });
    // Restored from the snapshot: the launcher found its key (no fallback line).
    expect(daemon.stderr()).not.toContain('without the start-up snapshot');
    daemon.child.kill();
    await daemon.exited;

    daemon = spawnDaemon(['serve', '--stdio'], { ...daemonEnv(other.home), AGENTD_STORE_URL: url });
    await daemon.peer.call('initialize', { protocolVersion: 1 });
    const { sessions } = await daemon.peer.call('session/list', {});
    expect(sessions.map((session) => session.sessionId)).toContain(sessionId);
  }, 60_000);
});
