import type { Session } from '../../session/session.js';
import type { ClientConnection } from '../wire/client-connection.js';

/**
 * A client went away: each session it followed whose turn a client started stops that turn
 * unless another connected client still follows the session. A turn outlives the client
 * that started it while someone watches it, and never runs on for nobody. Headless turns
 * (a scheduled run's, a queued job's: no client sent their prompt) run on whoever leaves,
 * so `agentd run --detach` may hang up as soon as its prompt is queued.
 */
export function stopUnfollowedTurns(left: readonly Session[], clients: Iterable<ClientConnection>): void {
  for (const session of left) {
    if (session.state === 'idle' || session.promptOrigin === undefined) continue;
    const followed = [...clients].some((client) => !client.rpc.closed && client.attached.get(session.id)?.session === session);
    if (!followed) session.cancel();
  }
}
