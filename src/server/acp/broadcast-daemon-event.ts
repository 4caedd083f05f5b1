import type { DaemonEvent } from '../../../protocol/index.js';
import type { ClientConnection } from '../wire/client-connection.js';

/** Sends a daemon-wide event to every initialized client that opted in to events at `initialize`. */
export function broadcastDaemonEvent(clients: Iterable<ClientConnection>, event: DaemonEvent): void {
  for (const client of clients) {
    if (client.initialized && client.wantsEvents && !client.peer.closed) client.peer.notify('agentd/daemonEvent', { event });
  }
}
