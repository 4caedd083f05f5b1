import { broadcastDaemonEvent } from '../server/acp/broadcast-daemon-event.js';
import type { DaemonContext } from '../server/daemon-context.js';
import { sessionOverview } from '../server/session-overview.js';
import { SessionNotFoundError } from '../session/session-errors.js';
import type { SessionEvent } from '../session/session-event.js';

/** The session events that change what a session overview shows (title, cost, mode, model, turn). */
const CHANGES_OVERVIEW = new Set<SessionEvent['type']>(['turn_start', 'turn_end', 'session_info', 'mode_changed', 'settings_changed', 'usage']);

/**
 * Keeps every opted-in client's list of sessions live: `session_changed` when a session is
 * created or loaded, unloaded, changes state (turn, abort, compaction, a permission
 * question opened or settled), title, cost, mode or model; `session_removed` when deleted.
 * Changes within one tick are sent once, after them: a turn's end is announced before its
 * state machine moves, and the overview must show the state it moved to. Each batch is
 * read from the store after the one before was sent, so a session's overviews go out in
 * the order of its changes, and its removal after them.
 */
export function reportSessionChanges(daemon: DaemonContext): void {
  const pending = new Set<string>();
  const unsubscribe = new Map<string, () => void>();
  /** Settles when the last batch (or removal) was sent. */
  let sent: Promise<void> = Promise.resolve();
  const inOrder = (send: () => Promise<void>): void => {
    sent = sent.then(send).catch((error: Error) => daemon.log(`session overviews: ${error.message}`));
  };
  const flush = async (): Promise<void> => {
    const ids = [...pending];
    pending.clear();
    for (const id of ids) {
      if (!(await daemon.sessions.exists(id))) continue;
      let record;
      try {
        record = await daemon.sessions.record(id);
      } catch (error) {
        // Deleted while it was read: its removal follows.
        if (error instanceof SessionNotFoundError) continue;
        throw error;
      }
      const session = sessionOverview({
        record,
        lastTurn: await daemon.sessions.lastTurn(id),
        live: daemon.sessions.get(id),
        question: daemon.permissionQuestions.oldest(id),
      });
      broadcastDaemonEvent(daemon.clients, { type: 'session_changed', session });
    }
  };
  const changed = (id: string): void => {
    if (pending.size === 0) queueMicrotask(() => inOrder(flush));
    pending.add(id);
  };
  daemon.sessions.observe({
    opened(session) {
      const offEvents = session.subscribe((event) => {
        if (CHANGES_OVERVIEW.has(event.type)) changed(session.id);
      });
      const offState = session.onStateChange(() => changed(session.id));
      unsubscribe.set(session.id, () => {
        offEvents();
        offState();
      });
      changed(session.id);
    },
    closed(session) {
      unsubscribe.get(session.id)?.();
      unsubscribe.delete(session.id);
      changed(session.id);
    },
    deleted(id) {
      pending.delete(id);
      inOrder(async () => broadcastDaemonEvent(daemon.clients, { type: 'session_removed', sessionId: id }));
    },
  });
  daemon.permissionQuestions.onChange((id) => changed(id));
}
