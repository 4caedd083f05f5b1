import type { Session } from '../../session/session.js';
import type { ClientConnection } from '../wire/client-connection.js';

/**
 * A client went away: each session it followed whose turn is running stops that turn
 * unless another connected client still follows the session. A turn outlives the client
 * that started it while someone watches it, and never runs on for nobody (scheduled and
 * headless turns, which no client follows, are not affected: no client ever left them).
 */
export function stopUnfollowedTurns(left: readonly Session[], clients: Iterable<ClientConnection>): void {
  for (const session of left) {
    if (session.state === 'idle') continue;
    const followed = [...clients].some((client) => !client.rpc.closed && client.attached.get(session.id)?.session === session);
    if (!followed) session.cancel();
  }
}
