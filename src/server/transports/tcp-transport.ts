import { createServer, type Server } from 'node:net';
import type { DaemonShell } from '../daemon-shell.js';
import { serveConnection } from '../serve-connection.js';

/** Parses `HOST:PORT` (IPv6 as `[::1]:PORT`). */
export function parseListenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw new Error(`--listen expects HOST:PORT such as 127.0.0.1:7777, got ${JSON.stringify(value)}`);
  }
  return { host: (match[1] ?? match[2])!, port };
}

/** Listens on TCP; every connection must open with `initialize` carrying the token. */
export async function serveTcp(shell: DaemonShell, address: { host: string; port: number }): Promise<Server> {
  if (!shell.tcpToken) throw new Error('TCP needs a token: the daemon has none configured');
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    serveConnection(shell, socket, socket, { kind: 'tcp', requireToken: true });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, resolve);
  });
  return server;
}
