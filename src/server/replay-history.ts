import type { SessionNotification } from '../../protocol/index.js';
import { replayEvents, type DescribeStoredCall } from '../session/replay-events.js';
import type { MessageRecord, TurnRecord } from '../store/store.js';
import type { ClientConnection } from './client-connection.js';
import { mapSessionEvent, type EventAudience } from './map-session-event.js';

/** A replay goes to the loading client alone: every message, its own prompts included; ACP updates only. */
const REPLAY_AUDIENCE: EventAudience = { clientId: '', wantsEvents: false, acceptsNotices: false, acceptsCompaction: false };

/**
 * The `session/update` notifications that replay a stored conversation: the stored
 * messages become the session events they were (replayEvents) and go through the same
 * mapping as live events, so a client that loads a session sees what a live client saw.
 * Each update carries its turn in `_meta.agentd.turnId`, and `interrupted` when the
 * message was cut short or its turn never finished (the daemon was killed mid-turn).
 */
export function replayUpdates(sessionId: string, messages: MessageRecord[], turns: TurnRecord[], describe: DescribeStoredCall, title?: string | null): SessionNotification[] {
  const out: SessionNotification[] = [];
  for (const { event, turnId, interrupted } of replayEvents(messages, turns, describe, title)) {
    for (const note of mapSessionEvent(sessionId, event, REPLAY_AUDIENCE)) {
      if (note.method !== 'session/update') continue;
      const { update } = note.params;
      const meta = { agentd: { turnId, ...(interrupted ? { interrupted: true } : {}) } };
      out.push({ ...note.params, update: { ...update, _meta: { ...update._meta, ...meta } } });
    }
  }
  return out;
}

/** Sends a stored conversation to a client, in order, as ACP `session/load` requires. */
export function replayHistory(client: ClientConnection, sessionId: string, messages: MessageRecord[], turns: TurnRecord[], describe: DescribeStoredCall, title?: string | null): void {
  for (const params of replayUpdates(sessionId, messages, turns, describe, title)) client.peer.notify('session/update', params);
}
