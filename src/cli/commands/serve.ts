import { fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { DEFAULT_IDLE_EXIT_MS } from '../../config/config-schema.js';
import { exitWhenIdle } from '../../daemon/exit-when-idle.js';
import { ensureTokenFile } from '../../server/wire/token-file.js';
import { serveStdio } from '../../server/wire/transports/stdio-transport.js';
import { tcpLimitsFromConfig } from '../../server/wire/transports/tcp-limits.js';
import { parseListenAddress, serveTcp } from '../../server/wire/transports/tcp-transport.js';
import { isSocketLive } from '../../server/wire/transports/is-socket-live.js';
import { serveUnixSocket } from '../../server/wire/transports/unix-socket-transport.js';
import { createDaemonShell } from '../../daemon/create-daemon-shell.js';
import { parseHttpAddress } from '../../server/http/http-address.js';
import { loadDaemonSettings } from '../../daemon/load-daemon-settings.js';
import { DataDirBusyError, describeOwner, tryLockDataDir, type DataDirLock } from '../../store/data-dir-lock.js';
import { ownerNoteNamesLiveProcess } from '../../store/data-dir-owner-note.js';
import { parsePermissionMode } from '../../tools/permissions/permission-modes.js';
import { bridgeStdio } from '../bridge-stdio.js';
import { signalReady, takeReadyFd } from '../daemon/ready-pipe.js';
import { packageVersion } from '../package-version.js';

/**
 * `agentd serve`: stdio by default; `--socket` and `--listen` serve many clients until
 * SIGINT/SIGTERM. `--on-demand` (what `agentd acp` and the clients' connect start) also
 * exits after `server.idleExitMs` with nothing to do, and logs to `daemon.log`. `--http`
 * (or `server.http` for a daemon serving a socket or TCP) also serves the web dashboard.
 */
export async function serveCommand(argv: string[]): Promise<number> {
  // `--socket` may come without a path (use the default); parseArgs wants a value, so mark it.
  const args = argv.map((arg, i) => (arg === '--socket' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--')) ? '--default-socket' : arg));
  const { values } = parseServeArgs(args);
  // A bridge that started this daemon waits on this pipe for it to listen (ready-pipe.ts).
  const readyFd = takeReadyFd(process.env);
  const onDemand = values['on-demand'] === true;
  if (onDemand && !values.socket && !values['default-socket']) {
    throw new Error('agentd serve --on-demand needs --socket [PATH]: a daemon started on demand serves the shared socket');
  }
  // Whoever started it (an editor's bridge, a script) does not read its stderr: the log goes to a file.
  const logFile = onDemand ? openLogFile(resolveAgentdPaths(process.env).logDir) : undefined;
  try {
    return await serve(values, logFile, readyFd);
  } catch (error) {
    // Also where `agentd logs` looks, so a client that started it can point there.
    // Unless stderr goes there already (as `agentd acp` starts it), where main prints it.
    if (logFile && !logFile.isStderr()) logFile.write(`agentd: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

type ServeFlags = ReturnType<typeof parseServeArgs>['values'];

function parseServeArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      stdio: { type: 'boolean' },
      socket: { type: 'string' },
      'default-socket': { type: 'boolean' },
      listen: { type: 'string' },
      config: { type: 'string' },
      'permission-mode': { type: 'string' },
      'on-demand': { type: 'boolean' },
      http: { type: 'string' },
      'http-any-host': { type: 'boolean' },
    },
    strict: true,
  });
}

async function serve(values: ServeFlags, logFile: LogFile | undefined, readyFd: number | undefined): Promise<number> {
  const onDemand = logFile !== undefined;
  const settings = loadDaemonSettings({
    ...(logFile ? { write: logFile.write } : {}),
    cwd: process.cwd(),
    env: process.env,
    version: packageVersion(),
    ...(values.config ? { configFile: values.config } : {}),
    ...(values.socket ? { socketPath: values.socket } : {}),
    ...(values['permission-mode'] ? { permissionMode: parsePermissionMode(values['permission-mode']) } : {}),
  });
  const { paths } = settings;
  // Checked before anything is taken or served, so a typo is the only thing reported.
  const httpFlag = values.http !== undefined ? parseHttpAddress(values.http, '--http') : undefined;
  // The launcher could not start this process from the start-up snapshot (built for another
  // Node, or none built): it works the same, only slower to start, so one log line says why.
  const snapshotSkipped = process.env.AGENTD_SNAPSHOT_SKIPPED;
  if (snapshotSkipped) {
    delete process.env.AGENTD_SNAPSHOT_SKIPPED;
    settings.log(`started without the start-up snapshot: ${snapshotSkipped}`);
  }
  const socketPath = values.socket ?? (values['default-socket'] ? paths.socketPath : undefined);
  // One daemon per data directory. On stdio alone, when no live owner is named in the
  // directory's note, the lock is taken with the daemon proper, right after the first answer
  // (loading SQLite for it is ~10 ms of the editor's wait); should another daemon take the
  // directory meanwhile, building fails naming it and this process exits. Otherwise it is
  // taken before anything is served, and a live owner is dealt with here.
  const stdioAlone = !socketPath && !values.listen && !onDemand && httpFlag === undefined;
  let lock: DataDirLock | undefined;
  if (!stdioAlone || ownerNoteNamesLiveProcess(paths.dataDir)) {
    const attempt = tryLockDataDir(paths.dataDir);
    if (attempt.kind === 'held') {
      const owner = attempt.owner;
      // A second agentd on stdio talks to the owner instead, as `agentd acp` does.
      if (!socketPath && !values.listen && owner?.socketPath && (await isSocketLive(owner.socketPath))) {
        settings.log(`${describeOwner(paths.dataDir, owner)}; passing this client to it (its config and permission mode apply)`);
        return bridgeStdio(owner.socketPath);
      }
      throw new DataDirBusyError(paths.dataDir, owner);
    }
    lock = attempt.lock;
  }
  const shell = createDaemonShell({ ...settings, options: { ...settings.options, ...(lock ? { lock } : {}) } }, { httpAnyHost: values['http-any-host'] === true });
  const servers = [];
  if (socketPath) {
    servers.push(await serveUnixSocket(shell, socketPath));
    shell.socketPath = socketPath;
    // The socket accepts connections now: the bridge that started this daemon connects while
    // the rest is set up (a connection waits in the backlog until then). Only bridges start
    // one on demand; any other serve leaves the descriptor alone.
    if (readyFd !== undefined && onDemand) signalReady(readyFd);
    lock?.announce({ socketPath });
    shell.log(`serving ${socketPath}`);
  }
  let stopIdleWatch: (() => void) | undefined;
  let idleExit: (() => void) | undefined;
  if (logFile) {
    // Read at start, like every `server` setting.
    const idleExitMs = settings.config.server?.idleExitMs ?? DEFAULT_IDLE_EXIT_MS;
    lock?.announce({ idleExitMs, logFile: logFile.path });
    shell.idleExit = { idleExitMs, logFile: logFile.path };
    shell.log(`started on demand: exits after ${idleExitMs} ms with no client, running turn, queued message or enabled schedule (server.idleExitMs)`);
    stopIdleWatch = exitWhenIdle(shell, idleExitMs, () => {
      shell.log(`nothing to do for ${idleExitMs} ms; exiting`);
      idleExit?.();
    });
  }
  if (values.listen) {
    const address = parseListenAddress(values.listen);
    shell.tcpToken = ensureTokenFile(paths.tokenFile);
    servers.push(await serveTcp(shell, address, tcpLimitsFromConfig(settings.config)));
    lock?.announce({ listen: values.listen });
    shell.log(`serving tcp ${values.listen} (token in ${paths.tokenFile})`);
  }
  // `server.http` is for the shared daemon; one on stdio serves the page only when asked (--http, dashboard/login).
  const configuredHttp = settings.config.server?.http;
  const http = httpFlag ?? (servers.length > 0 && configuredHttp !== undefined ? parseHttpAddress(configuredHttp, 'server.http') : undefined);
  if (http) await shell.dashboard!.serve(http);
  // A shared daemon builds at once: clients will come. On stdio, after the first answer;
  // and on demand too, since a bridge is waiting for that answer this very moment.
  if (servers.length > 0 && !onDemand) void shell.context();
  if (servers.length === 0) {
    // A signal to a stdio daemon shuts it down as the end of its input does: running
    // turns stopped, MCP servers (and what they started) stopped, the store closed.
    const stop = (): void => void shell.shutdown().finally(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
  if (servers.length === 0 || values.stdio) {
    await serveStdio(shell);
    if (servers.length === 0) {
      await shell.shutdown();
      return 0;
    }
  }
  await new Promise<void>((resolve) => {
    idleExit = resolve;
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  stopIdleWatch?.();
  for (const server of servers) server.close();
  await shell.shutdown();
  return 0;
}

/** Opens `daemon.log` in the log directory for appending (O_APPEND: a concurrent writer's lines never interleave mid-line). */
interface LogFile {
  path: string;
  write(line: string): void;
  /** Whether this process's stderr is that same file. */
  isStderr(): boolean;
}

function openLogFile(logDir: string): LogFile {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const path = join(logDir, 'daemon.log');
  const fd = openSync(path, 'a', 0o600);
  return {
    path,
    write: (line) => void writeSync(fd, `${new Date().toISOString()} ${line}\n`),
    isStderr() {
      const [file, stderr] = [fstatSync(fd), fstatSync(2)];
      return file.dev === stderr.dev && file.ino === stderr.ino;
    },
  };
}
