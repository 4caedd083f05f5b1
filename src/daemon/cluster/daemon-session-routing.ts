import type { SessionRouting } from '../../server/session-routing.js';
import type { SessionManager } from '../../session/session-manager.js';
import type { PermissionReply } from './permission-question-messages.js';

/** Session routing as the daemon drives it (handlers see only SessionRouting). */
export interface DaemonSessionRouting extends SessionRouting {
  /** Starts taking requests forwarded to this daemon, run on `sessions`. */
  start(sessions: SessionManager): Promise<void>;
  /** Takes no more requests from its queue; what waits there stays (as after a crash, when another daemon reroutes it). */
  stopTaking(): void;
  /** Takes no more requests and removes its queue; requests this daemon forwarded and still waits for fail, saying so. */
  stop(): Promise<void>;
  /** The daemons that have a queue of forwarded requests in the database (none on SQLite). */
  daemonQueues(): Promise<string[]>;
  /** Removes a gone daemon's queue and whatever still waits in it. */
  removeQueueOf(daemonId: string): Promise<void>;
  /** Sends the reply to a permission question of another daemon's turn to that daemon (see AskFollowersElsewhere). */
  replyToQuestion(to: string, reply: PermissionReply): Promise<void>;
  /** Told each reply other daemons send to questions of this daemon's turns. */
  onQuestionReply(listener: (reply: PermissionReply) => void): void;
}

/** One daemon on the SQLite store: every session is this daemon's, nothing is forwarded. */
export function localSessionRouting(daemonId: string): DaemonSessionRouting {
  return {
    daemonId,
    ownerElsewhere: async () => undefined,
    forward: () => Promise.reject(new Error('one daemon on the SQLite store forwards nothing: every session is its own')),
    cancel: () => Promise.reject(new Error('one daemon on the SQLite store forwards nothing: every session is its own')),
    start: async () => undefined,
    stopTaking: () => undefined,
    stop: async () => undefined,
    daemonQueues: async () => [],
    removeQueueOf: async () => undefined,
    replyToQuestion: () => Promise.reject(new Error('one daemon on the SQLite store has no other daemon to answer')),
    onQuestionReply: () => undefined,
  };
}
