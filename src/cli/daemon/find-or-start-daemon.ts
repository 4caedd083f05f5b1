import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';

const START_TIMEOUT_MS = 10_000;

/**
 * The socket of the daemon that serves this data directory: the given or default socket
 * when something answers there, else the one the directory's owner announced, else a daemon
 * started now (`agentd acp`, `agentd dashboard`). A directory owned by a daemon serving no
 * socket (stdio) is an error naming it.
 */
export async function findOrStartDaemon(paths: AgentdPaths, options: { socket?: string; config?: string } = {}): Promise<string> {
  const socketPath = options.socket ?? paths.socketPath;
  if (await isSocketLive(socketPath)) return socketPath;
  // The daemon that owns the data directory may serve another socket, or none at all.
  // Loaded only here: the usual path (a daemon answers) never pays for SQLite.
  const { DataDirBusyError, tryLockDataDir } = await import('../../store/data-dir-lock.js');
  const attempt = tryLockDataDir(paths.dataDir, { probe: true });
  if (attempt.kind === 'acquired') {
    attempt.lock.release();
    await startDaemon(socketPath, paths.logDir, options.config);
    return socketPath;
  }
  if (attempt.owner?.socketPath && (await isSocketLive(attempt.owner.socketPath))) return attempt.owner.socketPath;
  throw new DataDirBusyError(paths.dataDir, attempt.owner);
}

/**
 * Starts `agentd serve --socket PATH --on-demand` detached and waits until it answers. It
 * exits by itself after `server.idleExitMs` with nothing to do, so bridges that each found
 * no daemon do not leave daemons behind; its log and any crash output go to daemon.log.
 */
async function startDaemon(socketPath: string, logDir: string, configFile: string | undefined): Promise<void> {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(logDir, 'daemon.log'), 'a', 0o600);
  const main = process.argv[1]!;
  const child = spawn(process.execPath, [main, 'serve', '--socket', socketPath, '--on-demand', ...(configFile ? ['--config', configFile] : [])], {
    detached: true,
    stdio: ['ignore', log, log],
    env: process.env,
  });
  child.unref();
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await isSocketLive(socketPath)) return;
    // Another bridge may have started it meanwhile; only our own child's exit is fatal.
    if (exited !== null && !(await isSocketLive(socketPath))) {
      throw new Error(`the daemon exited with code ${exited} before serving ${socketPath}; see ${join(logDir, 'daemon.log')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the daemon did not start serving ${socketPath} within ${START_TIMEOUT_MS} ms; see ${join(logDir, 'daemon.log')}`);
}
