import type { Session } from '../session/session.js';
import type { ClientConnection } from './client-connection.js';
import { mapSessionEvent } from './map-session-event.js';

/** Streams a session's live events to a client until it detaches or disconnects. */
export function attachSession(client: ClientConnection, session: Session): void {
  const existing = client.attached.get(session.id);
  if (existing?.session === session) return;
  // Following an earlier object of this session (closed by another client, then reopened).
  existing?.unsubscribe();
  const capabilities = client.clientCapabilities as { session?: { notices?: unknown; compaction?: unknown } | null };
  const audience = {
    clientId: client.id,
    wantsEvents: client.wantsEvents,
    acceptsNotices: Boolean(capabilities.session?.notices),
    acceptsCompaction: Boolean(capabilities.session?.compaction),
  };
  const unsubscribe = session.subscribe((event) => {
    if (client.rpc.closed) return;
    for (const out of mapSessionEvent(session.id, event, audience)) {
      if (out.method === 'session/update') client.peer.notify(out.method, out.params);
      else client.peer.notify(out.method, out.params);
    }
  });
  client.attached.set(session.id, { session, unsubscribe });
}

export function detachSession(client: ClientConnection, sessionId: string): void {
  client.attached.get(sessionId)?.unsubscribe();
  client.attached.delete(sessionId);
}
