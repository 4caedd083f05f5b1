import { PassThrough } from 'node:stream';
import { AgentdClient, connectAgentdClient } from '../../../clients/typescript/src/index.js';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { createDaemonShell } from '../../daemon/create-daemon-shell.js';
import { loadDaemonSettings } from '../../daemon/load-daemon-settings.js';
import { serveConnection } from '../../server/wire/serve-connection.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';
import { DataDirBusyError, tryLockDataDir } from '../../store/data-dir-lock.js';
import type { PermissionMode } from '../../tools/permissions/permission-modes.js';

export interface RunConnection {
  client: AgentdClient;
  /** Where the prompt runs, for the one line `agentd run` says about it. */
  where: 'owner' | 'in-process';
  /** The daemon's `server.maxFrameBytes` when known here (the in-process daemon's); an owner's own config may differ. */
  maxFrameBytes?: number;
  close(): Promise<void>;
}

/**
 * `agentd run` is a client of a daemon either way, so both ways show the same thing: the
 * daemon that owns the data directory, through its socket (its config applies), or one
 * started in this process for the run and served over an in-memory stream pair.
 */
export async function openRunConnection(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  configFile?: string;
  model?: string;
  permissionMode?: PermissionMode;
  /** Where the daemon's log lines go (they carry their own `agentd:` prefix). */
  log: (line: string) => void;
  /** Only the daemon that owns the data directory will do: the error when none runs (nothing is started). */
  requireServing?: string;
}): Promise<RunConnection> {
  const dataDir = resolveAgentdPaths(options.env).dataDir;
  const attempt = tryLockDataDir(dataDir);
  if (attempt.kind !== 'held' && options.requireServing !== undefined) {
    attempt.lock.release();
    throw new Error(options.requireServing);
  }
  if (attempt.kind === 'held') {
    const socketPath = attempt.owner?.socketPath;
    if (!socketPath || !(await isSocketLive(socketPath))) throw new DataDirBusyError(dataDir, attempt.owner);
    // Running in the shared daemon is the normal path: nothing to say, unless a --config given here goes unread.
    if (options.configFile) options.log(`agentd: --config ${options.configFile} is not read: the running daemon (pid ${attempt.owner?.pid ?? '?'}) applies its own config`);
    const client = await connectAgentdClient(socketPath);
    return {
      client,
      where: 'owner',
      async close() {
        client.close();
      },
    };
  }
  let settings;
  try {
    settings = loadDaemonSettings({
      lock: attempt.lock,
      // A daemon for one prompt: schedules run in a serving daemon only.
      runSchedules: false,
      cwd: options.cwd,
      env: options.env,
      version: options.version,
      write: options.log,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    });
  } catch (error) {
    attempt.lock.release();
    throw error;
  }
  const shell = createDaemonShell(settings);
  const toDaemon = new PassThrough();
  const fromDaemon = new PassThrough();
  const { closed } = serveConnection(shell, toDaemon, fromDaemon, { kind: 'run' });
  const client = new AgentdClient(fromDaemon, toDaemon);
  return {
    client,
    where: 'in-process',
    maxFrameBytes: shell.maxFrameBytes,
    async close() {
      client.close();
      await closed;
      await shell.shutdown();
    },
  };
}
