import type { Socket } from 'node:net';
import type { TcpLimits } from '../wire/transports/tcp-limits.js';

/**
 * TCP's probation for HTTP connections, from the same settings: at most `maxConnections`
 * sockets in all, at most `maxUnauthenticatedConnections` that have not yet shown a session
 * cookie or a login token, and a socket that has not done so within `authTimeoutMs` is
 * destroyed (a browser's idle keep-alive socket too: it opens another).
 */
export class ConnectionProbation {
  private readonly open = new Set<Socket>();
  private readonly waiting = new Set<Socket>();

  constructor(private readonly limits: TcpLimits) {}

  /** Admits a new socket, or says why it is refused (the caller answers and closes it). */
  admit(socket: Socket): string | undefined {
    const { maxConnections, maxUnauthenticatedConnections, authTimeoutMs } = this.limits;
    if (this.open.size >= maxConnections) return `too many connections (server.maxConnections is ${maxConnections})`;
    if (this.waiting.size >= maxUnauthenticatedConnections) {
      return `too many connections waiting to log in (server.maxUnauthenticatedConnections is ${maxUnauthenticatedConnections})`;
    }
    this.open.add(socket);
    this.waiting.add(socket);
    const deadline = setTimeout(() => {
      if (this.waiting.has(socket)) socket.destroy();
    }, authTimeoutMs);
    deadline.unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      this.open.delete(socket);
      this.waiting.delete(socket);
    });
    return undefined;
  }

  /** The socket showed a session cookie or spent a login token: no deadline, not counted as waiting. */
  pass(socket: Socket): void {
    this.waiting.delete(socket);
  }
}
