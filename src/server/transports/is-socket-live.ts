import { createConnection } from 'node:net';

// Apart from the socket transport, so that `agentd acp` (a byte bridge) and `agentd run`
// can look for a running daemon without loading the server.

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
