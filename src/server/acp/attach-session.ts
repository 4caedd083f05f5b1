import type { Session } from '../../session/session.js';
import type { SessionEvent } from '../../session/session-event.js';
import type { ClientConnection } from '../wire/client-connection.js';
import { DeltaNotificationJson } from './delta-notification-json.js';
import { mapSessionEvent } from './map-session-event.js';
import { sessionConfigOptions } from './session-choices.js';

/**
 * Streams a session's live events to a client until it detaches or disconnects. With
 * `catchUp` (what the running turn has shown since its last stored message) those go
 * first, in the same tick as the subscription, so nothing streamed falls in between.
 */
export function attachSession(client: ClientConnection, session: Session, catchUp: readonly SessionEvent[] = []): void {
  const existing = client.attached.get(session.id);
  const capabilities = client.clientCapabilities as { session?: { notices?: unknown; compaction?: unknown } | null };
  const audience = {
    clientId: client.id,
    wantsEvents: client.wantsEvents,
    acceptsNotices: Boolean(capabilities.session?.notices),
    acceptsCompaction: Boolean(capabilities.session?.compaction),
  };
  const deltas = new DeltaNotificationJson(session.id);
  const send = (event: SessionEvent): void => {
    if (client.rpc.closed) return;
    // A streamed delta maps to the same update for every audience: its line is built directly.
    if (event.type === 'text_delta' || event.type === 'thinking_delta') return client.peer.notifySerialized(deltas.of(event));
    for (const out of mapSessionEvent(session.id, event, audience)) {
      if (out.method === 'session/update') client.peer.notify(out.method, out.params);
      else client.peer.notify(out.method, out.params);
    }
    // Every follower's pickers show the new state, whoever changed it (a client reading
    // configOptions, as Zed does, ignores current_mode_update).
    if (event.type === 'mode_changed' || event.type === 'settings_changed') {
      client.peer.notify('session/update', { sessionId: session.id, update: { sessionUpdate: 'config_option_update', configOptions: sessionConfigOptions(session) } });
    }
  };
  for (const event of catchUp) send(event);
  if (existing?.session === session) return;
  // Following an earlier object of this session (closed by another client, then reopened).
  existing?.unsubscribe();
  const unsubscribe = session.subscribe(send);
  client.attached.set(session.id, { session, unsubscribe });
}

export function detachSession(client: ClientConnection, sessionId: string): void {
  client.attached.get(sessionId)?.unsubscribe();
  client.attached.delete(sessionId);
}
