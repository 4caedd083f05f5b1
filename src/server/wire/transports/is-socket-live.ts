import { createConnection } from 'node:net';
import { checkSocketPath } from '../../../../protocol/wire/check-socket-path.js';

// Apart from the socket transport, so that `agentd acp` (a byte bridge) and `agentd run`
// can look for a running daemon without loading the server.

/**
 * True when something accepts connections on the socket path. Even this probe connects,
 * so a path in a folder another user owns or can write is refused first: the promise
 * rejects with UnsafeSocketPathError and nothing is connected.
 */
export function isSocketLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    checkSocketPath(path, { action: 'connect to' });
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
