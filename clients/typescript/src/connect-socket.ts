import { connect, type Socket } from 'node:net';
import { AgentdClient, type AgentdClientOptions } from './agentd-client.js';

/** Opens a Unix socket (or rejects with why, e.g. ENOENT, ECONNREFUSED). */
export function openSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
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
    throw new Error(`cannot connect to the daemon at ${socketPath}: ${(error as Error).message}`);
  }
  const client = new AgentdClient(socket, socket, options);
  void client.closed.then(() => socket.destroy());
  return client;
}
