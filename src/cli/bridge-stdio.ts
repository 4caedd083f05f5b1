import { connect } from 'node:net';
import { checkSocketPath } from '../../protocol/wire/check-socket-path.js';

/**
 * Pipes this process's stdin and stdout to a daemon's Unix socket, byte for byte, until
 * either side ends: the client on stdio then talks to that daemon as if it ran here.
 */
export async function bridgeStdio(socketPath: string): Promise<number> {
  // The editor's `initialize` must never reach another user's process.
  checkSocketPath(socketPath, { action: 'connect to' });
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) => reject(new Error(`cannot connect to the daemon at ${socketPath}: ${error.message}`)));
  });
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  await new Promise<void>((resolve) => {
    socket.once('close', resolve);
    process.stdin.once('end', () => socket.end());
  });
  return 0;
}
