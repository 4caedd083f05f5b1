import type { CrossDaemonUpdates } from '../../session/cross-daemon-updates.js';
import type { Session } from '../../session/session.js';
import type { SessionEvent } from '../../session/session-event.js';
import type { SessionManager } from '../../session/session-manager.js';
import { listenForSessionUpdates } from '../../store/listen-for-session-updates.js';
import { PostgresSessionUpdates, type SessionUpdateRow } from '../../store/postgres-session-updates.js';
import type { PermissionAnswer, PermissionAsker, PermissionQuestionForClient } from '../../project/permission-asker.js';
import { AnswerQuestionsFromElsewhere } from './answer-questions-from-elsewhere.js';
import { AskFollowersElsewhere } from './ask-followers-elsewhere.js';
import type { PermissionReply } from './permission-question-messages.js';
import { SessionUpdatePublisher } from './publish-session-updates.js';
import { SessionUpdateRelay } from './session-update-relay.js';

/** Live updates across daemons, started; close() after the sessions have stopped (their last updates go out first). */
export interface StartedSessionUpdates extends CrossDaemonUpdates {
  readonly daemonId: string;
  /** Asks a question of a turn here of the clients here (`askHere`) and of those following `root` on other daemons (see AskFollowersElsewhere). */
  askEverywhere(root: string, question: PermissionQuestionForClient, signal: AbortSignal, askHere: PermissionAsker): Promise<PermissionAnswer>;
  /** Another daemon's reply to a question asked here, from this daemon's pg-boss queue. */
  questionReplied(reply: PermissionReply): void;
  close(): Promise<void>;
}

/** How this daemon asks its own clients others' questions, and answers back. */
export interface QuestionPorts {
  /** Asks the clients here following `root`. */
  askHere(root: string, question: PermissionQuestionForClient, signal: AbortSignal): Promise<PermissionAnswer>;
  /** Sends a reply to another daemon's pg-boss queue. */
  reply(to: string, reply: PermissionReply): Promise<void>;
}

/**
 * Live updates across daemons sharing one PostgreSQL database: every live session's turns
 * run here are published (SessionUpdatePublisher), every live session's turns run
 * elsewhere are relayed to its followers here (SessionUpdateRelay), woken by LISTEN on a
 * connection of its own. Permission questions of turns here are put to the followers on
 * other daemons the same way, and theirs to the clients here.
 */
export async function startSessionUpdates(
  url: string,
  /** This daemon's id, whether it holds a session's lease (its turns run here), and the other daemons alive. */
  cluster: { daemonId: string; holdsLease(sessionId: string): boolean; otherLiveDaemons(): Promise<string[]> },
  sessions: SessionManager,
  questions: QuestionPorts,
  log: (line: string) => void,
): Promise<StartedSessionUpdates> {
  const { daemonId, otherLiveDaemons } = cluster;
  const updates = new PostgresSessionUpdates(url);
  const publisher = new SessionUpdatePublisher(updates, daemonId, log);
  const asked = new AskFollowersElsewhere({ publish: (sessionId, kind, payload) => publisher.publishQuestion(sessionId, kind, payload), otherLiveDaemons, log });
  const answering = new AnswerQuestionsFromElsewhere({ daemonId, ...questions, otherLiveDaemons, log });
  const followed = new Map<string, { session: Session; relay: SessionUpdateRelay; stop: () => void }>();
  const parts = {
    updates,
    daemonId,
    sessions,
    log,
    fromElsewhere: (event: SessionEvent) => publisher.fromElsewhere(event),
    questionFromElsewhere: (sessionId: string, row: SessionUpdateRow) => answering.received(sessionId, row),
  };
  const follow = (session: Session, created = false): SessionUpdateRelay => {
    const existing = followed.get(session.id);
    if (existing?.session === session) return existing.relay;
    existing?.stop();
    const relay = new SessionUpdateRelay(session, parts, created);
    followed.set(session.id, { session, relay, stop: publisher.follow(session) });
    return relay;
  };
  sessions.observe({
    opened: (session, created) => void follow(session, created),
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
    askEverywhere: (root, question, signal, askHere) => asked.ask(root, question, signal, askHere),
    questionReplied: (reply) => asked.replied(reply),
    async close() {
      answering.close();
      await listener.close();
      await publisher.settled();
      await updates.close();
    },
  };
}
