import type { SessionNotification } from '../../../protocol/index.js';
import { visitReplayEvents, type DescribeStoredCall } from '../../session/replay-events.js';
import type { SessionEvent } from '../../session/session-event.js';
import type { MessageRecord, TurnRecord } from '../../store/store.js';
import type { ClientConnection } from '../wire/client-connection.js';
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
  visitReplayUpdates(sessionId, messages, turns, describe, title, (params) => void out.push(params));
  return out;
}

/** Sends a stored conversation to a client, in order, as ACP `session/load` requires. */
export function replayHistory(client: ClientConnection, sessionId: string, messages: MessageRecord[], turns: TurnRecord[], describe: DescribeStoredCall, title?: string | null): void {
  // Each update is sent as soon as it is made, so a long history is never held twice over.
  visitReplayUpdates(sessionId, messages, turns, describe, title, (params) => client.peer.notify('session/update', params));
}

/** Sends session events to a loading client alone, mapped as a replay is (e.g. the MCP server failures that stand). */
export function sendReplayEvents(client: ClientConnection, sessionId: string, events: readonly SessionEvent[]): void {
  for (const event of events) {
    for (const note of mapSessionEvent(sessionId, event, REPLAY_AUDIENCE)) {
      if (note.method === 'session/update') client.peer.notify('session/update', note.params);
    }
  }
}

function visitReplayUpdates(
  sessionId: string,
  messages: MessageRecord[],
  turns: TurnRecord[],
  describe: DescribeStoredCall,
  title: string | null | undefined,
  send: (params: SessionNotification) => void,
): void {
  visitReplayEvents(messages, turns, describe, title, (event, turnId, interrupted) => {
    for (const note of mapSessionEvent(sessionId, event, REPLAY_AUDIENCE)) {
      if (note.method !== 'session/update') continue;
      // mapSessionEvent made this update for this call alone: the turn is added in place
      // (the same JSON as a copy with it, at a copy less per notification).
      const { update } = note.params;
      update._meta = { ...update._meta, agentd: { turnId, ...(interrupted ? { interrupted: true } : {}) } };
      send(note.params);
    }
  });
}
