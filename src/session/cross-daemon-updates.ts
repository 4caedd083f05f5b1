import type { MessageRecord, TurnRecord } from '../store/store.js';
import type { SessionEvent } from './session-event.js';
import type { Session } from './session.js';

/** What a client loading a session starts from when its turn may run on another daemon (see catchUpFromUpdates). */
export interface CrossDaemonCatchUp {
  /** The stored history to replay: every message the updates so far have announced. */
  messages: MessageRecord[];
  turns: TurnRecord[];
  /** The title to show after the first prompt, once the updates have announced it. */
  title: string | null;
  /** What the running turn has shown since its last announced message. */
  inFlight: SessionEvent[];
  /** The turn running on another daemon, if one is. */
  runningTurnId: string | undefined;
}

/**
 * The port through which the server follows sessions whose turns run on other daemons
 * (PostgreSQL only; absent on the single-daemon SQLite store).
 */
export interface CrossDaemonUpdates {
  /**
   * Whether the session's turn runs on this daemon, or its updates are still being written
   * from here: its own stream is then the whole truth for a client loading it.
   */
  runsHere(sessionId: string): boolean;
  /**
   * Builds the catch-up for a client loading `session` from one snapshot of the database
   * and calls `attach` with it at the point this daemon's followers have been sent, so
   * the live rest follows with nothing missing or twice. Resolves false, without calling
   * `attach`, when a turn started here meanwhile (the local stream then serves the client).
   */
  join(session: Session, attach: (catchUp: CrossDaemonCatchUp) => void): Promise<boolean>;
}
