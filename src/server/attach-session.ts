import type { Session } from '../session/session.js';
import type { ClientConnection } from './client-connection.js';
import { mapSessionEvent } from './map-session-event.js';

/** Streams a session's live events to a client until it detaches or disconnects. */
export function attachSession(client: ClientConnection, session: Session): void {
  if (client.attached.has(session.id)) return;
  const capabilities = client.clientCapabilities as { session?: { notices?: unknown; compaction?: unknown } | null };
  const unsubscribe = session.subscribe((event) => {
    if (client.rpc.closed) return;
    const audience = {
      clientId: client.id,
      wantsEvents: client.wantsEvents,
      acceptsNotices: Boolean(capabilities.session?.notices),
      acceptsCompaction: Boolean(capabilities.session?.compaction),
    };
    for (const out of mapSessionEvent(session.id, event, audience)) client.rpc.notify(out.method, out.params);
  });
  client.attached.set(session.id, unsubscribe);
}

export function detachSession(client: ClientConnection, sessionId: string): void {
  client.attached.get(sessionId)?.();
  client.attached.delete(sessionId);
}
