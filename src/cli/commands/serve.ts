import { parseArgs } from 'node:util';
import { ensureTokenFile } from '../../server/token-file.js';
import { serveStdio } from '../../server/transports/stdio-transport.js';
import { tcpLimitsFromConfig } from '../../server/transports/tcp-limits.js';
import { parseListenAddress, serveTcp } from '../../server/transports/tcp-transport.js';
import { isSocketLive } from '../../server/transports/is-socket-live.js';
import { serveUnixSocket } from '../../server/transports/unix-socket-transport.js';
import { createDaemonShell } from '../../server/create-daemon-shell.js';
import { loadDaemonSettings } from '../../server/load-daemon-settings.js';
import { DataDirBusyError, describeOwner, tryLockDataDir } from '../../store/data-dir-lock.js';
import { parsePermissionMode } from '../../tools/permissions/permission-modes.js';
import { bridgeStdio } from '../bridge-stdio.js';
import { packageVersion } from '../package-version.js';

/** `agentd serve`: stdio by default; `--socket` and `--listen` serve many clients until SIGINT/SIGTERM. */
export async function serveCommand(argv: string[]): Promise<number> {
  // `--socket` may come without a path (use the default); parseArgs wants a value, so mark it.
  const args = argv.map((arg, i) => (arg === '--socket' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--')) ? '--default-socket' : arg));
  const { values } = parseArgs({
    args,
    options: {
      stdio: { type: 'boolean' },
      socket: { type: 'string' },
      'default-socket': { type: 'boolean' },
      listen: { type: 'string' },
      config: { type: 'string' },
      'permission-mode': { type: 'string' },
    },
    strict: true,
  });
  const settings = loadDaemonSettings({
    cwd: process.cwd(),
    env: process.env,
    version: packageVersion(),
    ...(values.config ? { configFile: values.config } : {}),
    ...(values.socket ? { socketPath: values.socket } : {}),
    ...(values['permission-mode'] ? { permissionMode: parsePermissionMode(values['permission-mode']) } : {}),
  });
  const { paths } = settings;
  const socketPath = values.socket ?? (values['default-socket'] ? paths.socketPath : undefined);
  // One daemon per data directory: taken before anything is served.
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
  const lock = attempt.lock;
  const shell = createDaemonShell({ ...settings, options: { ...settings.options, lock } });
  const servers = [];
  if (socketPath) {
    servers.push(await serveUnixSocket(shell, socketPath));
    shell.socketPath = socketPath;
    lock.announce({ socketPath });
    shell.log(`serving ${socketPath}`);
  }
  if (values.listen) {
    const address = parseListenAddress(values.listen);
    shell.tcpToken = ensureTokenFile(paths.tokenFile);
    servers.push(await serveTcp(shell, address, tcpLimitsFromConfig(settings.config)));
    lock.announce({ listen: values.listen });
    shell.log(`serving tcp ${values.listen} (token in ${paths.tokenFile})`);
  }
  // A shared daemon builds at once: clients will come. On stdio, after the first answer.
  if (servers.length > 0) void shell.context();
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
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const server of servers) server.close();
  await shell.shutdown();
  return 0;
}
