import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDaemonShell } from '../../src/daemon/create-daemon-shell.js';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';
import { tryLockDataDir } from '../../src/store/data-dir-lock.js';
import { resolveAgentdPaths } from '../../src/config/agentd-paths.js';
import { spawnDaemon, daemonEnv } from '../support/daemon-process.js';

describe('a daemon shell that is shutting down', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  const home = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'agentd-shell-'));
    homes.push(dir);
    return dir;
  };

  it('builds nothing once shutdown has begun: no store, no watchers, the data directory free', async () => {
    const dir = home();
    const env = { AGENTD_HOME: dir };
    const shell = createDaemonShell(loadDaemonSettings({ cwd: dir, env, version: 'test', write: () => undefined }));
    await shell.shutdown();
    // What `initialize` kicks a tick after its answer, when the input has already ended.
    await expect(shell.context()).rejects.toThrow('the daemon is shutting down');
    expect(existsSync(resolveAgentdPaths(env).databaseFile)).toBe(false);
    const lock = tryLockDataDir(resolveAgentdPaths(env).dataDir);
    expect(lock.kind).toBe('acquired');
    if (lock.kind === 'acquired') lock.lock.release();
  });

  it('a stdio daemon whose input ends right after initialize exits, every time', async () => {
    const dir = home();
    for (let run = 0; run < 8; run++) {
      const daemon = spawnDaemon(['serve', '--stdio'], daemonEnv(dir));
      await daemon.peer.call('initialize', { protocolVersion: 1 });
      daemon.child.stdin.end();
      const exit = await Promise.race([daemon.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 10_000))]);
      if (exit === 'running') daemon.child.kill('SIGKILL');
      expect({ run, exit }).toEqual({ run, exit: { code: 0, signal: null } });
    }
  });
});
