import { spawn } from 'node:child_process';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { checkSocketPath } from '../../../protocol/wire/check-socket-path.js';
import type { AgentdPaths } from '../../config/agentd-paths.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';
import { ownerNoteNamesLiveProcess } from '../../store/data-dir-owner-note.js';
import { awaitReady, READY_FD, READY_FD_ENV } from './ready-pipe.js';
import { serveCommandLine } from './serve-command-line.js';

const START_TIMEOUT_MS = 10_000;
/** How long an owner that holds the data directory may take to serve its socket before it counts as serving none. */
const OWNER_SOCKET_WAIT_MS = 1000;
const OWNER_POLL_MS = 10;

/**
 * The socket of the daemon that serves this data directory: the given or default socket
 * when something answers there, else the one the directory's owner announced, else a daemon
 * started now (`agentd acp`, `agentd dashboard`). A directory owned by a daemon serving no
 * socket (stdio) is an error naming it. On `agentd acp`'s path: it loads nothing but the
 * socket probe and the owner's note unless a daemon must be asked about or started.
 */
export async function findOrStartDaemon(paths: AgentdPaths, options: { socket?: string; config?: string } = {}): Promise<string> {
  const socketPath = options.socket ?? paths.socketPath;
  // Where there is no file nothing listens, and a connect would say so only a turn of the
  // event loop later (1–10 ms of a cold start); the socket's folder is checked all the same.
  if (noFileAt(socketPath)) checkSocketPath(socketPath, { action: 'connect to' });
  else if (await isSocketLive(socketPath)) return socketPath;
  // With no owner's note (or a dead owner's), nobody holds the data directory: start the
  // daemon at once. Otherwise ask the lock who holds it (SQLite, loaded only then).
  return ownerNoteNamesLiveProcess(paths.dataDir)
    ? ownersSocket(paths.dataDir, () => startDaemon(socketPath, paths.dataDir, paths.logDir, options.config))
    : startDaemon(socketPath, paths.dataDir, paths.logDir, options.config);
}

/** Whether nothing at all is at `path` (anything else, or an error other than its absence, is left to the probe). */
function noFileAt(path: string): boolean {
  try {
    lstatSync(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The socket of the daemon that owns the data directory, which may serve another socket
 * than ours, or none at all (then an error naming it); `whenFree` when nobody owns it.
 */
async function ownersSocket(dataDir: string, whenFree: () => Promise<string>): Promise<string> {
  const { DataDirBusyError, tryLockDataDir } = await import('../../store/data-dir-lock.js');
  const deadline = Date.now() + OWNER_SOCKET_WAIT_MS;
  for (;;) {
    const attempt = tryLockDataDir(dataDir, { probe: true });
    if (attempt.kind === 'acquired') {
      attempt.lock.release();
      return whenFree();
    }
    if (attempt.owner?.socketPath && (await isSocketLive(attempt.owner.socketPath))) return attempt.owner.socketPath;
    // A daemon started on demand a moment ago (another bridge's) holds the lock before it
    // listens and names its socket: wait for that a little, not for a stdio owner forever.
    if (Date.now() >= deadline) throw new DataDirBusyError(dataDir, attempt.owner);
    await new Promise((resolve) => setTimeout(resolve, OWNER_POLL_MS));
  }
}

/**
 * Starts `agentd serve --socket PATH --on-demand` detached and waits until it listens, as
 * it says through a pipe (ready-pipe.ts). It exits by itself after `server.idleExitMs` with
 * nothing to do, so bridges that each found no daemon do not leave daemons behind; its log
 * and any crash output go to daemon.log, whose new lines name why when it stops first.
 */
async function startDaemon(socketPath: string, dataDir: string, logDir: string, configFile: string | undefined): Promise<string> {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const logPath = join(logDir, 'daemon.log');
  const log = openSync(logPath, 'a', 0o600);
  const logStart = fstatSync(log).size;
  const args = ['serve', '--socket', socketPath, '--on-demand', ...(configFile ? ['--config', configFile] : [])];
  const serve = serveCommandLine(dirname(process.argv[1]!), args);
  const child = spawn(serve.command, serve.args, {
    detached: true,
    stdio: ['ignore', log, log, 'pipe'],
    env: { ...serve.env, [READY_FD_ENV]: String(READY_FD) },
  });
  closeSync(log);
  // Referenced until it listens or stops, so that this process waits for its exit status.
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(code !== null ? `code ${code}` : `signal ${signal}`)));
  const outcome = await awaitReady(child.stdio[READY_FD] as Readable, START_TIMEOUT_MS);
  if (outcome !== 'ended') child.unref();
  if (outcome === 'listening') return socketPath;
  if (outcome === 'timeout') throw new Error(`the daemon did not start serving ${socketPath} within ${START_TIMEOUT_MS} ms; see ${logPath}`);
  // Another bridge's daemon may have won the socket (ours then stopped, finding it taken), or
  // an owner that had not written its note yet holds the directory: only then is ours fatal.
  if (await isSocketLive(socketPath)) return socketPath;
  const how = await exited;
  const reason = lastWords(logPath, logStart);
  return ownersSocket(dataDir, () =>
    Promise.reject(new Error(`the daemon exited with ${how} before serving ${socketPath}${reason ? `: ${reason}` : ''}; see ${logPath}`)),
  );
}

/**
 * What the daemon wrote to its log since `from` when it stopped: its last message (the
 * failure main printed, `agentd: …`, with any lines that follow it), without the program's
 * prefix or the log's timestamp.
 */
function lastWords(logPath: string, from: number): string {
  try {
    const lines = readFileSync(logPath).subarray(from).toString('utf8').trimEnd().split('\n');
    const start = lines.findLastIndex((line) => LOG_MESSAGE.test(line));
    const said = lines.slice(Math.max(start, 0)).join('\n').replace(LOG_MESSAGE, '').trim();
    return said.length > 2000 ? `${said.slice(0, 2000)}…` : said;
  } catch {
    return '';
  }
}

/** The start of a message in daemon.log: a timestamp when the daemon logged it, none when main printed its failure. */
const LOG_MESSAGE = /^(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?agentd: /;
