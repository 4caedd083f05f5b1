/**
 * The cluster's shared state in the store: which daemons live (a registry renewed by
 * heartbeats) and which daemon runs which session (a lease per session, with a fencing
 * epoch). Every expiry is decided by the database's clock, never a daemon's. On SQLite
 * the same calls run with one daemon, which can always claim its sessions.
 *
 * Fencing: once `claimSession` succeeded, the store object remembers the session's epoch,
 * and each of its writes for that session (appendMessage, startTurn, endTurn,
 * updateSession, addSessionCost, deleteSession, pendingPrompts.add) checks in the same statement or
 * transaction that the lease is still this daemon's with that epoch; a daemon that lost
 * its lease can never write to the session again (StoreError `fenced`) until it claims it
 * anew. A write for a session this store holds no lease on goes through unless another
 * daemon holds a live lease on it.
 */

/** Why a turn of a daemon that died is `interrupted`. */
export function stoppedRenewing(daemonId: string): string {
  return `daemon ${daemonId} stopped renewing its lease while this turn was running`;
}

/** What a daemon says of itself when it joins the cluster. */
export interface DaemonRegistration {
  /** `dmn_` + 16 hex characters, made once per process (daemon-identity.ts). */
  id: string;
  host: string;
  pid: number;
  /** The folders whose sessions it serves; empty means every folder. */
  roots: string[];
  /** The turns it runs at once. */
  concurrency: number;
  /** Its lease length: without a heartbeat for this long it counts as gone. */
  leaseMs: number;
}

/** A registered daemon as the database sees it now. */
export interface DaemonInfo extends DaemonRegistration {
  /** ISO 8601 UTC. */
  startedAt: string;
  /** ISO 8601 UTC. */
  heartbeatAt: string;
  /** Milliseconds since its last heartbeat, by the database's clock. */
  heartbeatAgeMs: number;
  /** False once it went `leaseMs` without a heartbeat. */
  alive: boolean;
  /** The turns it ran at its last heartbeat. */
  runningTurns: number;
  /** Sessions whose live lease it holds, sorted. */
  sessionsOwned: string[];
}

/** The answer to a claim: the lease with its epoch, or who holds it and until when. */
export type LeaseClaim = { epoch: number } | { heldBy: string; expiresAt: string };

/** A session's lease as stored. */
export interface SessionLease {
  sessionId: string;
  /** Null once released: the session is idle and belongs to no one. */
  owner: string | null;
  epoch: number;
  /** ISO 8601 UTC. */
  expiresAt: string;
  /** Held by `owner` and not expired. */
  live: boolean;
}

export interface ClusterStore {
  /**
   * Whether other daemons can use the same database (PostgreSQL); false for the SQLite
   * file, which one daemon holds at a time (its data directory's lock), so nobody reads its
   * heartbeats or could take its leases.
   */
  readonly shared: boolean;
  /** Records the daemon and its start (a re-registration of the same id starts it anew). */
  registerDaemon(daemon: DaemonRegistration): Promise<void>;
  /** Renews the daemon's heartbeat; fails `not_found` when it was forgotten. */
  heartbeat(daemonId: string, state: { runningTurns: number }): Promise<void>;
  /** Every registered daemon, oldest start first. */
  listDaemons(): Promise<DaemonInfo[]>;
  /** At clean shutdown: removes the daemon and releases its leases. */
  forgetDaemon(daemonId: string): Promise<void>;
  /**
   * Removes a daemon that died: only when it has had no heartbeat for `goneForMs` (by the
   * database's clock; false otherwise, and for an unknown id). In the same transaction
   * its expired leases are released with a new epoch (so it could never write again) and
   * the turns still `running` in those sessions become `interrupted`, as a takeover marks them.
   */
  forgetGoneDaemon(daemonId: string, goneForMs: number): Promise<boolean>;
  /**
   * Claims the session for `daemonId` for `leaseMs`. Held live by another daemon: returns
   * who and until when. Free, released, expired or already this daemon's: the lease is
   * taken (a new epoch unless this daemon already held it), and when it is taken from an
   * expired owner the session's turns still `running` become `interrupted` in the same
   * transaction. Fails `not_found` for an unknown session.
   */
  claimSession(sessionId: string, daemonId: string, leaseMs: number): Promise<LeaseClaim>;
  /** Extends every lease the daemon holds; returns the sessions it claimed and has LOST since (taken by another), each once. */
  renewLeases(daemonId: string, leaseMs: number): Promise<string[]>;
  /** Gives the session up (it went idle); does nothing when the lease is not this daemon's. */
  releaseSession(sessionId: string, daemonId: string): Promise<void>;
  /** The session's lease, if it ever had one. */
  leaseOf(sessionId: string): Promise<SessionLease | undefined>;
}
