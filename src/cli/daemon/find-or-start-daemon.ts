import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';
import { ownerNoteNamesLiveProcess } from '../../store/data-dir-owner-note.js';

const START_TIMEOUT_MS = 10_000;
/** How often to look for the daemon's socket while it starts: a probe costs well under a millisecond, a late look all of its wait. */
const START_POLL_MS = 5;

/**
 * The socket of the daemon that serves this data directory: the given or default socket
 * when something answers there, else the one the directory's owner announced, else a daemon
 * started now (`agentd acp`, `agentd dashboard`). A directory owned by a daemon serving no
 * socket (stdio) is an error naming it. On `agentd acp`'s path: it loads nothing but the
 * socket probe and the owner's note unless a daemon must be asked about or started.
 */
export async function findOrStartDaemon(paths: AgentdPaths, options: { socket?: string; config?: string } = {}): Promise<string> {
  const socketPath = options.socket ?? paths.socketPath;
  if (await isSocketLive(socketPath)) return socketPath;
  // With no owner's note (or a dead owner's), nobody holds the data directory: start the
  // daemon at once. Otherwise ask the lock who holds it (SQLite, loaded only then).
  return ownerNoteNamesLiveProcess(paths.dataDir)
    ? ownersSocket(paths.dataDir, () => startDaemon(socketPath, paths.dataDir, paths.logDir, options.config))
    : startDaemon(socketPath, paths.dataDir, paths.logDir, options.config);
}

/**
 * The socket of the daemon that owns the data directory, which may serve another socket
 * than ours, or none at all (then an error naming it); `whenFree` when nobody owns it.
 */
async function ownersSocket(dataDir: string, whenFree: () => Promise<string>): Promise<string> {
  const { DataDirBusyError, tryLockDataDir } = await import('../../store/data-dir-lock.js');
  const attempt = tryLockDataDir(dataDir, { probe: true });
  if (attempt.kind === 'acquired') {
    attempt.lock.release();
    return whenFree();
  }
  if (attempt.owner?.socketPath && (await isSocketLive(attempt.owner.socketPath))) return attempt.owner.socketPath;
  throw new DataDirBusyError(dataDir, attempt.owner);
}

/**
 * Starts `agentd serve --socket PATH --on-demand` detached and waits until it answers. It
 * exits by itself after `server.idleExitMs` with nothing to do, so bridges that each found
 * no daemon do not leave daemons behind; its log and any crash output go to daemon.log.
 */
async function startDaemon(socketPath: string, dataDir: string, logDir: string, configFile: string | undefined): Promise<string> {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(logDir, 'daemon.log'), 'a', 0o600);
  const args = ['serve', '--socket', socketPath, '--on-demand', ...(configFile ? ['--config', configFile] : [])];
  const main = process.argv[1]!;
  // The `agentd` launcher beside this bin starts serve from the start-up snapshot when it
  // can; it runs the `node` on PATH, so this one is put first there.
  const launcher = join(dirname(main), 'agentd');
  const [command, argv, env] = existsSync(launcher)
    ? [launcher, args, { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }]
    : [process.execPath, [main, ...args], process.env];
  const child = spawn(command, argv, { detached: true, stdio: ['ignore', log, log], env });
  child.unref();
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? 1;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await isSocketLive(socketPath)) return socketPath;
    // Another bridge may have started it meanwhile; only our own child's exit is fatal. It
    // may have found the directory taken (by an owner that had not written its note yet).
    if (exited !== null && !(await isSocketLive(socketPath))) {
      const code = exited;
      return ownersSocket(dataDir, () => Promise.reject(new Error(`the daemon exited with code ${code} before serving ${socketPath}; see ${join(logDir, 'daemon.log')}`)));
    }
    await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
  }
  throw new Error(`the daemon did not start serving ${socketPath} within ${START_TIMEOUT_MS} ms; see ${join(logDir, 'daemon.log')}`);
}
