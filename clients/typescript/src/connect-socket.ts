import { connect, type Socket } from 'node:net';
import { checkSocketPath, UnsafeSocketPathError } from '../../../protocol/wire/check-socket-path.js';
import { AgentdClient } from './agentd-client.js';
import type { AgentdClientOptions } from './agentd-connection.js';

export { checkSocketPath, UnsafeSocketPathError };

/**
 * Opens a Unix socket (or rejects with why, e.g. ENOENT, ECONNREFUSED), after checking
 * that no other user owns or can write its folder or owns the socket
 * (UnsafeSocketPathError): the editor's first message never reaches another user's process.
 */
export function openSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    checkSocketPath(path, { action: 'connect to' });
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A typed client on the daemon's socket; the socket goes when the client closes. */
export async function connectAgentdClient(socketPath: string, options: AgentdClientOptions = {}): Promise<AgentdClient> {
  let socket: Socket;
  try {
    socket = await openSocket(socketPath);
  } catch (error) {
    if (error instanceof UnsafeSocketPathError) throw error;
    throw new Error(`cannot connect to the daemon at ${socketPath}: ${(error as Error).message}`);
  }
  const client = new AgentdClient(socket, socket, options);
  void client.closed.then(() => socket.destroy());
  return client;
}
