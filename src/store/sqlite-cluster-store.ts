import type Database from 'better-sqlite3';
import { stoppedRenewing, type ClusterStore, type DaemonInfo, type DaemonRegistration, type LeaseClaim, type SessionLease } from './cluster-store.js';
import type { LeaseFence } from './lease-fence.js';
import { sqliteStatement } from './sqlite-statement.js';
import { StoreError } from './store-error.js';

/** SQLite's clock as milliseconds since 1970 (the database's clock, as PostgreSQL's now()). */
export const SQLITE_NOW_MS = "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)";

/**
 * The condition a write for the session named by `sessionRef` adds to its WHERE clause,
 * with the named parameters @fenceOwner and @fenceEpoch (see sqliteFenceParams). A
 * statement is atomic in SQLite, so the check and the write cannot be separated.
 */
export function sqliteFence(sessionRef: string): string {
  return `(CASE WHEN @fenceEpoch IS NULL
     THEN NOT EXISTS (SELECT 1 FROM session_leases WHERE session_id = ${sessionRef} AND owner IS NOT NULL
                      AND owner IS NOT @fenceOwner AND expires_at > ${SQLITE_NOW_MS})
     ELSE EXISTS (SELECT 1 FROM session_leases WHERE session_id = ${sessionRef} AND owner = @fenceOwner AND epoch = @fenceEpoch) END)`;
}

export function sqliteFenceParams(fence: LeaseFence, sessionId: string): { fenceOwner: string | null; fenceEpoch: number | null } {
  return { fenceOwner: fence.daemonId, fenceEpoch: fence.epochOf(sessionId) };
}

/** Why a fenced write for an existing session changed nothing: the refusal, or undefined when the session is gone. */
export function sqliteRefusal(db: Database.Database, fence: LeaseFence, sessionId: string): StoreError | undefined {
  const row = sqliteStatement(db, 'SELECT l.owner FROM sessions s LEFT JOIN session_leases l ON l.session_id = s.id WHERE s.id = ?').get(sessionId) as
    | { owner: string | null }
    | undefined;
  return row === undefined ? undefined : fence.refusal(sessionId, row.owner);
}

interface DaemonRow {
  id: string;
  host: string;
  pid: number;
  roots: string;
  concurrency: number;
  lease_ms: number;
  started_at: number;
  heartbeat_at: number;
  age_ms: number;
  running_turns: number;
  owned: string | null;
}

interface LeaseRow {
  session_id: string;
  owner: string | null;
  epoch: number;
  expires_at: number;
  live: number;
}

/** The registry and the leases on SQLite, by its clock; one daemon per data directory in practice. */
export class SqliteClusterStore implements ClusterStore {
  readonly shared = false;

  constructor(
    private readonly db: Database.Database,
    private readonly fence: LeaseFence,
    private readonly now: () => string,
  ) {}

  async registerDaemon(daemon: DaemonRegistration): Promise<void> {
    this.fence.actAs(daemon.id);
    this.db
      .prepare(
        `INSERT INTO daemons (id, host, pid, roots, concurrency, lease_ms, started_at, heartbeat_at, running_turns)
         VALUES (@id, @host, @pid, @roots, @concurrency, @leaseMs, ${SQLITE_NOW_MS}, ${SQLITE_NOW_MS}, 0)
         ON CONFLICT (id) DO UPDATE SET host = @host, pid = @pid, roots = @roots, concurrency = @concurrency, lease_ms = @leaseMs,
           started_at = ${SQLITE_NOW_MS}, heartbeat_at = ${SQLITE_NOW_MS}, running_turns = 0`,
      )
      .run({ ...daemon, roots: JSON.stringify(daemon.roots) });
  }

  async heartbeat(daemonId: string, state: { runningTurns: number }): Promise<void> {
    const result = this.db.prepare(`UPDATE daemons SET heartbeat_at = ${SQLITE_NOW_MS}, running_turns = ? WHERE id = ?`).run(state.runningTurns, daemonId);
    if (result.changes === 0) {
      throw new StoreError('not_found', `daemon ${JSON.stringify(daemonId)} is not registered (it was forgotten); register it again`);
    }
  }

  async listDaemons(): Promise<DaemonInfo[]> {
    const rows = this.db
      .prepare(
        `SELECT d.*, ${SQLITE_NOW_MS} - d.heartbeat_at AS age_ms,
           (SELECT json_group_array(session_id) FROM (SELECT session_id FROM session_leases l
              WHERE l.owner = d.id AND l.expires_at > ${SQLITE_NOW_MS} ORDER BY session_id)) AS owned
         FROM daemons d ORDER BY d.started_at, d.id`,
      )
      .all() as DaemonRow[];
    return rows.map((row) => {
      const age = Math.max(0, row.age_ms);
      return {
        id: row.id,
        host: row.host,
        pid: row.pid,
        roots: JSON.parse(row.roots) as string[],
        concurrency: row.concurrency,
        leaseMs: row.lease_ms,
        startedAt: new Date(row.started_at).toISOString(),
        heartbeatAt: new Date(row.heartbeat_at).toISOString(),
        heartbeatAgeMs: age,
        alive: age < row.lease_ms,
        runningTurns: row.running_turns,
        sessionsOwned: row.owned === null ? [] : (JSON.parse(row.owned) as string[]),
      };
    });
  }

  async forgetDaemon(daemonId: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare(`UPDATE session_leases SET owner = NULL, expires_at = ${SQLITE_NOW_MS} WHERE owner = ?`).run(daemonId);
      this.db.prepare('DELETE FROM daemons WHERE id = ?').run(daemonId);
    })();
    if (daemonId === this.fence.daemonId) for (const [sessionId] of this.fence.claimed()) this.fence.released(sessionId);
  }

  async forgetGoneDaemon(daemonId: string, goneForMs: number): Promise<boolean> {
    return this.db.transaction((): boolean => {
      const gone = this.db.prepare(`DELETE FROM daemons WHERE id = ? AND heartbeat_at < ${SQLITE_NOW_MS} - ? RETURNING id`).all(daemonId, goneForMs);
      if (gone.length === 0) return false;
      const released = this.db
        .prepare(`UPDATE session_leases SET owner = NULL, epoch = epoch + 1, expires_at = ${SQLITE_NOW_MS} WHERE owner = ? AND expires_at <= ${SQLITE_NOW_MS} RETURNING session_id`)
        .all(daemonId) as Array<{ session_id: string }>;
      const interrupt = this.db.prepare(`UPDATE turns SET status = 'interrupted', ended_at = ?, error = ? WHERE session_id = ? AND status = 'running'`);
      for (const { session_id } of released) interrupt.run(this.now(), stoppedRenewing(daemonId), session_id);
      return true;
    }).immediate();
  }

  async claimSession(sessionId: string, daemonId: string, leaseMs: number): Promise<LeaseClaim> {
    this.fence.actAs(daemonId);
    const claim = this.db.transaction((): LeaseClaim => {
      if (sqliteStatement(this.db, 'SELECT 1 FROM sessions WHERE id = ?').get(sessionId) === undefined) {
        throw new StoreError('not_found', `session ${JSON.stringify(sessionId)} does not exist; create it first or list sessions to find its id`);
      }
      const lease = sqliteStatement(this.db, `SELECT session_id, owner, epoch, expires_at, expires_at > ${SQLITE_NOW_MS} AS live FROM session_leases WHERE session_id = ?`).get(
        sessionId,
      ) as LeaseRow | undefined;
      const owner = lease?.owner ?? null;
      const mine = owner === daemonId;
      if (owner !== null && !mine && lease!.live === 1) return { heldBy: owner, expiresAt: new Date(lease!.expires_at).toISOString() };
      const epoch = mine ? lease!.epoch : (lease?.epoch ?? 0) + 1;
      sqliteStatement(
        this.db,
        `INSERT INTO session_leases (session_id, owner, epoch, expires_at) VALUES (?, ?, ?, ${SQLITE_NOW_MS} + ?)
         ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch, expires_at = excluded.expires_at`,
      ).run(sessionId, daemonId, epoch, leaseMs);
      // Taken from an owner that is gone: its turns were cut short, as start-up recovery marks them.
      if (owner !== null && !mine) {
        sqliteStatement(this.db, `UPDATE turns SET status = 'interrupted', ended_at = ?, error = ? WHERE session_id = ? AND status = 'running'`).run(
          this.now(),
          stoppedRenewing(owner),
          sessionId,
        );
      }
      return { epoch };
    }).immediate();
    if ('epoch' in claim) this.fence.held(sessionId, claim.epoch);
    return claim;
  }

  async renewLeases(daemonId: string, leaseMs: number): Promise<string[]> {
    const before = this.fence.claimed();
    const rows = this.db
      .prepare(`UPDATE session_leases SET expires_at = ${SQLITE_NOW_MS} + ? WHERE owner = ? RETURNING session_id, epoch`)
      .all(leaseMs, daemonId) as Array<{ session_id: string; epoch: number }>;
    const renewed = new Map(rows.map((row) => [row.session_id, row.epoch]));
    return this.fence.newlyLost(renewed, before);
  }

  async releaseSession(sessionId: string, daemonId: string): Promise<void> {
    const epoch = this.fence.epochOf(sessionId);
    this.fence.released(sessionId);
    sqliteStatement(this.db, `UPDATE session_leases SET owner = NULL, expires_at = ${SQLITE_NOW_MS} WHERE session_id = ? AND owner = ? AND (? IS NULL OR epoch = ?)`).run(
      sessionId,
      daemonId,
      epoch,
      epoch,
    );
  }

  async leaseOf(sessionId: string): Promise<SessionLease | undefined> {
    const row = this.db
      .prepare(`SELECT session_id, owner, epoch, expires_at, (owner IS NOT NULL AND expires_at > ${SQLITE_NOW_MS}) AS live FROM session_leases WHERE session_id = ?`)
      .get(sessionId) as LeaseRow | undefined;
    if (row === undefined) return undefined;
    return { sessionId: row.session_id, owner: row.owner, epoch: row.epoch, expiresAt: new Date(row.expires_at).toISOString(), live: row.live === 1 };
  }
}
