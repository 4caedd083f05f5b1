import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { daemonEnv, makeHome } from './daemon-process.js';
import { startInProcessDaemon, type InProcessDaemon } from './in-process-daemon.js';
import { createTestDatabase } from './postgres-server.js';
import { startReplayServer, type ReplayServer } from './replay-server.js';

/** In-process daemons with homes of their own, sharing one fresh PostgreSQL database, one workspace and one loopback model. */
export interface DaemonsOnOneDatabase {
  replay: ReplayServer;
  /** The database's URL (AGENTD_STORE_URL of every daemon). */
  url: string;
  workspace: string;
  daemons: InProcessDaemon[];
}

/**
 * `count` daemons as `agentd serve` runs them, each with its own AGENTD_HOME (data
 * directory, config) and AGENTD_STORE_URL pointing at one test database, whose model
 * `local/e2e-model` is the replay server (`models`: that provider's model settings, such as
 * a small context window). Everything started is pushed onto `cleanups`, to be run in reverse after the test.
 */
export async function startDaemonsOnOneDatabase(
  cleanups: Array<() => Promise<void> | void>,
  count: number,
  models?: Record<string, unknown>,
): Promise<DaemonsOnOneDatabase> {
  const replay = await startReplayServer();
  cleanups.push(() => replay.close());
  const url = await createTestDatabase();
  const workspace = mkdtempSync(join(tmpdir(), 'agentd-ws-'));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
  const daemons: InProcessDaemon[] = [];
  for (let i = 0; i < count; i++) {
    const home = makeHome({ model: 'local/e2e-model', providers: { local: { type: 'openai-chat', baseUrl: `${replay.url}/v1`, ...(models ? { models } : {}) } } });
    cleanups.push(() => home.cleanup());
    const daemon = startInProcessDaemon(daemonEnv(home.home, { AGENTD_STORE_URL: url }), workspace);
    cleanups.push(() => daemon.close());
    // Started one after another: the first migrates the database, the next find it migrated.
    await daemon.context();
    daemons.push(daemon);
  }
  return { replay, url, workspace, daemons };
}
