import { parseArgs } from 'node:util';
import { ensureTokenFile } from '../../server/token-file.js';
import { serveStdio } from '../../server/transports/stdio-transport.js';
import { parseListenAddress, serveTcp } from '../../server/transports/tcp-transport.js';
import { serveUnixSocket } from '../../server/transports/unix-socket-transport.js';
import { startDaemon } from '../../server/start-daemon.js';
import { parsePermissionMode } from '../../tools/permissions/permission-mode.js';
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
  const started = await startDaemon({
    cwd: process.cwd(),
    env: process.env,
    version: packageVersion(),
    ...(values.config ? { configFile: values.config } : {}),
    ...(values['permission-mode'] ? { permissionMode: parsePermissionMode(values['permission-mode']) } : {}),
  });
  const { daemon, paths } = started;
  const servers = [];
  const socketPath = values.socket ?? (values['default-socket'] ? paths.socketPath : undefined);
  if (socketPath) {
    servers.push(await serveUnixSocket(daemon, socketPath));
    daemon.socketPath = socketPath;
    daemon.log(`serving ${socketPath}`);
  }
  if (values.listen) {
    const address = parseListenAddress(values.listen);
    daemon.tcpToken = ensureTokenFile(paths.tokenFile);
    servers.push(await serveTcp(daemon, address));
    daemon.log(`serving tcp ${values.listen} (token in ${paths.tokenFile})`);
  }
  if (servers.length === 0 || values.stdio) {
    await serveStdio(daemon);
    if (servers.length === 0) {
      await started.shutdown();
      return 0;
    }
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  for (const server of servers) server.close();
  await started.shutdown();
  return 0;
}
