import { describe, expect, it } from 'vitest';
import { loadDaemonSettings } from '../../src/daemon/load-daemon-settings.js';
import { buildDaemon } from '../../src/daemon/start-daemon.js';
import { lockDataDir } from '../../src/store/data-dir-lock.js';
import { daemonEnv, makeHome } from '../support/daemon-process.js';

describe('a daemon start that fails', () => {
  it('releases the data directory and says what was wrong: a malformed AGENTD_STORE_URL, a store that cannot be opened', async () => {
    const home = makeHome();
    try {
      for (const [url, problem] of [
        ['mysql://db.example.com/agentd', 'AGENTD_STORE_URL must be a PostgreSQL URL'],
        // A socket folder with no server in it: refused at once, no address outside the machine.
        [`postgres://agentd@localhost/agentd?host=${encodeURIComponent(home.home)}`, 'cannot use the PostgreSQL store'],
      ] as const) {
        const env = daemonEnv(home.home, { AGENTD_STORE_URL: url });
        const settings = loadDaemonSettings({ cwd: home.home, env, version: 'test', write: () => undefined });
        await expect(buildDaemon(settings)).rejects.toThrow(problem);
        // Nothing is left holding the directory: the next daemon takes it.
        lockDataDir(settings.paths.dataDir).release();
      }
    } finally {
      home.cleanup();
    }
  });
});
