import type { CrossDaemonUpdates } from '../../session/cross-daemon-updates.js';
import type { Session } from '../../session/session.js';
import type { SessionEvent } from '../../session/session-event.js';
import type { SessionManager } from '../../session/session-manager.js';
import { listenForSessionUpdates } from '../../store/listen-for-session-updates.js';
import { PostgresSessionUpdates } from '../../store/postgres-session-updates.js';
import { SessionUpdatePublisher } from './publish-session-updates.js';
import { SessionUpdateRelay } from './session-update-relay.js';

/** Live updates across daemons, started; close() after the sessions have stopped (their last updates go out first). */
export interface StartedSessionUpdates extends CrossDaemonUpdates {
  readonly daemonId: string;
  close(): Promise<void>;
}

/**
 * Live updates across daemons sharing one PostgreSQL database: every live session's turns
 * run here are published (SessionUpdatePublisher), every live session's turns run
 * elsewhere are relayed to its followers here (SessionUpdateRelay), woken by LISTEN on a
 * connection of its own.
 */
export async function startSessionUpdates(
  url: string,
  /** This daemon's id, and whether it holds a session's lease (its turns run here). */
  cluster: { daemonId: string; holdsLease(sessionId: string): boolean },
  sessions: SessionManager,
  log: (line: string) => void,
): Promise<StartedSessionUpdates> {
  const { daemonId } = cluster;
  const updates = new PostgresSessionUpdates(url);
  const publisher = new SessionUpdatePublisher(updates, daemonId, log);
  const followed = new Map<string, { session: Session; relay: SessionUpdateRelay; stop: () => void }>();
  const parts = { updates, daemonId, sessions, log, fromElsewhere: (event: SessionEvent) => publisher.fromElsewhere(event) };
  const follow = (session: Session): SessionUpdateRelay => {
    const existing = followed.get(session.id);
    if (existing?.session === session) return existing.relay;
    existing?.stop();
    const relay = new SessionUpdateRelay(session, parts);
    followed.set(session.id, { session, relay, stop: publisher.follow(session) });
    return relay;
  };
  sessions.observe({
    opened: (session) => void follow(session),
    closed: (session) => {
      const entry = followed.get(session.id);
      if (entry?.session !== session) return;
      entry.stop();
      followed.delete(session.id);
    },
  });
  for (const session of sessions.liveSessions()) follow(session);
  const listener = listenForSessionUpdates(url, {
    applicationName: `agentd-updates-listener ${daemonId}`,
    // This daemon's own appends need no reading back: its followers were sent them live.
    onWakeUp: (sessionId, seq, origin) => {
      if (origin !== daemonId) followed.get(sessionId)?.relay.wake(seq);
    },
    // Whatever was NOTIFYed while nobody listened is read from the table.
    onListening: () => {
      for (const { relay } of followed.values()) relay.wake();
    },
    log,
  });
  await listener.started;
  return {
    daemonId,
    // A turn runs where its session's lease is held; its last updates may still be going out after.
    runsHere: (sessionId) => cluster.holdsLease(sessionId) || publisher.writing(sessionId),
    join: (session, attach) => follow(session).join(attach),
    async close() {
      await listener.close();
      await publisher.settled();
      await updates.close();
    },
  };
}
