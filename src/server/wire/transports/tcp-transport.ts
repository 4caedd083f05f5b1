import { createServer, type Server, type Socket } from 'node:net';
import type { ClientConnection } from '../client-connection.js';
import type { DaemonShell } from '../../daemon-shell.js';
import { RpcError } from '../rpc-error.js';
import { serveConnection } from '../serve-connection.js';
import { destroyAfterFlush } from './destroy-after-flush.js';
import { DEFAULT_TCP_LIMITS, type TcpLimits } from './tcp-limits.js';

/** Parses `HOST:PORT` (IPv6 as `[::1]:PORT`). */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new Error(`--listen expects HOST:PORT such as 127.0.0.1:7777, got ${JSON.stringify(value)}`);
  }
  return { host: (match[1] ?? match[2])!, port };
}

/**
 * Listens on TCP; every connection must open with `initialize` carrying the token. Until
 * it does, a connection is on probation: small frames, a small output queue, no second
 * malformed message, a deadline, and a cap on how many such connections exist at once.
 * A closed connection's socket is destroyed, so nothing it sent stays buffered.
 */
export async function serveTcp(shell: DaemonShell, address: { host: string; port: number }, limits: TcpLimits = DEFAULT_TCP_LIMITS): Promise<Server> {
  if (!shell.tcpToken) throw new Error('TCP needs a token: the daemon has none configured');
  const open = new Set<Socket>();
  const unauthenticated = new Set<ClientConnection>();
  const server = createServer((socket) => {
    const full =
      open.size >= limits.maxConnections
        ? `too many connections (server.maxConnections is ${limits.maxConnections})`
        : unauthenticated.size >= limits.maxUnauthenticatedConnections
          ? `too many connections waiting to authenticate (server.maxUnauthenticatedConnections is ${limits.maxUnauthenticatedConnections})`
          : undefined;
    if (full) return refuse(socket, full, shell);
    open.add(socket);
    socket.setNoDelay(true);
    const { client } = serveConnection(shell, socket, socket, {
      kind: 'tcp',
      requireToken: true,
      limits: { maxFrameBytes: Math.min(limits.preAuthMaxFrameBytes, shell.maxFrameBytes), maxQueuedBytes: limits.preAuthMaxQueuedBytes, closeOnMalformed: true },
    });
    unauthenticated.add(client);
    const deadline = setTimeout(() => {
      shell.log(`${client.id}: no initialize with the token within ${limits.authTimeoutMs} ms; closing`);
      client.rpc.close();
    }, limits.authTimeoutMs);
    client.onAuthenticated(() => {
      clearTimeout(deadline);
      unauthenticated.delete(client);
      client.rpc.setLimits({ maxFrameBytes: shell.maxFrameBytes, maxQueuedBytes: undefined, closeOnMalformed: false });
    });
    client.rpc.onClose(() => {
      clearTimeout(deadline);
      unauthenticated.delete(client);
      open.delete(socket);
      destroyAfterFlush(socket);
    });
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, resolve);
  });
  return server;
}

/** Answers with one NDJSON error line and hangs up. */
function refuse(socket: Socket, reason: string, shell: DaemonShell): void {
  shell.log(`tcp: refused a connection from ${socket.remoteAddress ?? '?'}: ${reason}`);
  socket.on('error', () => undefined);
  const error = RpcError.unauthorized(`${reason}; try again later`).toJSON();
  socket.end(JSON.stringify({ jsonrpc: '2.0', id: null, error }) + '\n');
  destroyAfterFlush(socket);
}
