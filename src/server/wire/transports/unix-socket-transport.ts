import { chmodSync, lstatSync, mkdirSync, unlinkSync, type Stats } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import { checkSocketPath } from '../../../../protocol/wire/check-socket-path.js';
import type { DaemonShell } from '../../daemon-shell.js';
import { serveConnection } from '../serve-connection.js';
import { destroyAfterFlush } from './destroy-after-flush.js';
import { isSocketLive } from './is-socket-live.js';

/** Another daemon already answers on the socket. */
export class SocketInUseError extends Error {}

/** Something that is not a socket is at the socket path; it is never removed. */
export class SocketPathTakenError extends Error {}

/**
 * Listens on a Unix socket readable only by its owner (0600, in a 0700 directory), never
 * in a folder another user owns or can write (checkSocketPath).
 * Only a socket file nobody answers on (left over from a crash) is replaced; a live one
 * is refused so two daemons never fight over one path, and anything else at the path
 * (a file, a directory, a symlink to anything) is refused and left as it is.
 */
export async function serveUnixSocket(shell: DaemonShell, path: string): Promise<Server> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Never listen where another user owns or can write the folder: clients would trust what they find there.
  checkSocketPath(path, { action: 'listen on' });
  const existing = lstatOrUndefined(path);
  if (existing && !existing.isSocket()) {
    throw new SocketPathTakenError(
      `${path} is ${describeFile(existing)}, not a socket; agentd replaces only a stale socket there and leaves everything else alone: move it aside or pass --socket with another path`,
    );
  }
  if (existing) {
    if (await isSocketLive(path)) {
      throw new SocketInUseError(
        `another agentd is already serving ${path}; connect to it (agentd acp) or stop it first, or pass --socket with another path`,
      );
    }
    // Nobody answers: a crashed daemon's socket. Checked again right before removal.
    if (lstatOrUndefined(path)?.isSocket()) unlinkSync(path);
  }
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    const { client } = serveConnection(shell, socket, socket, { kind: 'unix' });
    client.rpc.onClose(() => destroyAfterFlush(socket));
  });
  await new Promise<void>((resolve, reject) => {
    // Create the socket with no group/other bits from the start, then make sure of it.
    const previous = process.umask(0o177);
    server.once('error', (error) => {
      process.umask(previous);
      reject(error);
    });
    server.listen(path, () => {
      process.umask(previous);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  return server;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function describeFile(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFile()) return `a regular file (${stats.size} bytes)`;
  if (stats.isFIFO()) return 'a named pipe';
  return 'a device or other special file';
}
