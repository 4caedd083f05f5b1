/**
 * Steers and follow-ups waiting for a running turn, kept in the database so none is lost
 * with its daemon. A session stores one before its request is answered; the turn that
 * takes it appends it as a user message with `NewMessage.pendingPromptId`, which removes
 * the row in the same transaction (so it is delivered once); one the session drops
 * (abort, the turn ended first) is removed. What a daemon that is gone left behind is
 * claimed by another (claimOrphans), queued as its own turn and removed.
 */

/** The queue a prompt waits in: `steering` (before the next model request) or `followUp` (when the model would stop). */
export type PendingQueue = 'steering' | 'followUp';

/** A prompt to keep while it waits. */
export interface NewPendingPrompt {
  /** Chosen by the caller (a random UUID); unique across the database. */
  id: string;
  /** The session whose running turn it waits for; it must exist. */
  sessionId: string;
  queue: PendingQueue;
  /** The prompt's ACP content blocks, stored as JSON. */
  content: unknown[];
  /** The connection that sent it, if any. */
  origin: string | null;
}

/** A stored pending prompt. */
export interface PendingPrompt extends NewPendingPrompt {
  /** The daemon that queued it (the store's daemon when it was added). */
  daemonId: string;
  /** The daemon rescuing it now (see claimOrphans); null while its own daemon holds it. */
  claimedBy: string | null;
  /** Rises with each prompt added to the database: the order they were queued in. */
  order: number;
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface PendingPromptStore {
  /**
   * Stores the prompt as queued by this store's daemon (it must have registered or claimed
   * a session first). A session write: fenced like appendMessage (StoreError `fenced` when
   * another daemon holds the session's lease), `not_found` for an unknown session.
   */
  add(prompt: NewPendingPrompt): Promise<PendingPrompt>;
  /** Removes the prompts (dropped, or queued elsewhere); unknown ids are ignored. Returns how many went. */
  remove(ids: readonly string[]): Promise<number>;
  /** The session's pending prompts in the order queued. */
  list(sessionId: string): Promise<PendingPrompt[]>;
  /**
   * Claims for `daemonId`, in one transaction that one rescuer at a time runs, every prompt
   * whose daemon is gone (no heartbeat for its lease, or no longer registered) and that no
   * live daemon other than `daemonId` has claimed; returns them in the order queued. The
   * caller queues each and removes it, or gives it back.
   */
  claimOrphans(daemonId: string): Promise<PendingPrompt[]>;
  /** Gives claimed prompts back (queueing them failed): the next rescue claims them again. */
  giveBack(ids: readonly string[], daemonId: string): Promise<void>;
}
