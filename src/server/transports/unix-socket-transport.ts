import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import type { DaemonShell } from '../daemon-shell.js';
import { serveConnection } from '../serve-connection.js';

/** Another daemon already answers on the socket. */
export class SocketInUseError extends Error {}

/**
 * Listens on a Unix socket readable only by its owner (0600, in a 0700 directory).
 * A socket file nobody answers on is left over from a crash and is replaced; a live
 * one is refused so two daemons never fight over one path.
 */
export async function serveUnixSocket(shell: DaemonShell, path: string): Promise<Server> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (await isSocketLive(path)) {
    throw new SocketInUseError(
      `another agentd is already serving ${path}; connect to it (agentd acp) or stop it first, or pass --socket with another path`,
    );
  }
  try {
    unlinkSync(path);
  } catch {
    // No stale file.
  }
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    serveConnection(shell, socket, socket, { kind: 'unix' });
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

/** True when something accepts connections on the socket path. */
export function isSocketLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
