import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAgentdPaths } from '../../config/agentd-paths.js';
import { isSocketLive } from '../../server/transports/unix-socket-transport.js';

const START_TIMEOUT_MS = 10_000;

/**
 * `agentd acp`: for editors that can only spawn an agent over stdio. Pipes stdio to the
 * shared daemon's socket byte for byte, starting the daemon first when none runs, so
 * every editor shares one daemon and its sessions.
 */
export async function acpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { socket: { type: 'string' }, config: { type: 'string' } },
    strict: true,
  });
  const paths = resolveAgentdPaths(process.env);
  const socketPath = values.socket ?? paths.socketPath;
  if (!(await isSocketLive(socketPath))) await startDaemon(socketPath, paths.logDir, values.config);

  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  await new Promise<void>((resolve) => {
    socket.once('close', resolve);
    process.stdin.once('end', () => socket.end());
  });
  return 0;
}

/** Starts `agentd serve --socket PATH` detached, logging to the log dir, and waits until it answers. */
async function startDaemon(socketPath: string, logDir: string, configFile: string | undefined): Promise<void> {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(logDir, 'daemon.log'), 'a', 0o600);
  const main = process.argv[1]!;
  const child = spawn(process.execPath, [main, 'serve', '--socket', socketPath, ...(configFile ? ['--config', configFile] : [])], {
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
