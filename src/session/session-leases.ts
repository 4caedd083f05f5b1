/**
 * How a session holds the right to run its turns when several daemons share the store:
 * a session with a running turn or queued work belongs to the daemon holding its lease;
 * an idle one to no one. Implemented in the daemon layer (src/daemon/cluster/), on the
 * store's leases; on the SQLite default the one daemon always gets them.
 */
export interface SessionLeases {
  /**
   * Claims the session for this daemon before a turn starts. While another live daemon
   * holds it, calls `waiting` with that daemon's id (once) and retries until the lease is
   * free or has expired (its daemon died) — a prompt is never refused as busy nor run on
   * two daemons. Rejects when `signal` aborts first.
   */
  acquire(sessionId: string, signal: AbortSignal, waiting: (holder: string) => void): Promise<void>;
  /** The session went idle (no running turn, nothing queued): gives its lease up. */
  release(sessionId: string): void;
  /** The daemon running the session now when it is another live daemon, else undefined: where a prompt could be routed. */
  heldElsewhere(sessionId: string): Promise<string | undefined>;
}
