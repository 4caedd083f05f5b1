import type pg from 'pg';
import { stoppedRenewing, type ClusterStore, type DaemonInfo, type DaemonRegistration, type LeaseClaim, type SessionLease } from './cluster-store.js';
import type { LeaseFence } from './lease-fence.js';
import { type PostgresQuery, inTransaction } from './postgres-query.js';
import { StoreError } from './store-error.js';

interface DaemonRow {
  id: string;
  host: string;
  pid: number;
  roots: string;
  concurrency: number;
  lease_ms: number;
  started_at: Date;
  heartbeat_at: Date;
  age_ms: string;
  running_turns: number;
  owned: string[] | null;
}

interface LeaseRow {
  session_id: string;
  owner: string | null;
  epoch: string;
  expires_at: Date;
  live: boolean;
}

/**
 * The condition a write for the session named by `sessionRef` (an SQL expression) adds to
 * its WHERE clause, and its parameters numbered from `next`. With a lease claimed it
 * locks the lease row (FOR SHARE), so a takeover committing meanwhile is seen: the
 * write waits for it and then fails the condition.
 */
export function postgresFence(fence: LeaseFence, sessionId: string, sessionRef: string, next: number): { sql: string; params: unknown[] } {
  const epoch = fence.epochOf(sessionId);
  if (epoch !== null) {
    return {
      sql: `EXISTS (SELECT 1 FROM session_leases WHERE session_id = ${sessionRef} AND owner = $${next}::text AND epoch = $${next + 1}::bigint FOR SHARE)`,
      params: [fence.daemonId, epoch],
    };
  }
  return {
    sql: `NOT EXISTS (SELECT 1 FROM session_leases WHERE session_id = ${sessionRef} AND owner IS NOT NULL AND owner IS DISTINCT FROM $${next}::text AND expires_at > now())`,
    params: [fence.daemonId],
  };
}

/** Why a fenced write for an existing session changed nothing: the refusal, or undefined when the session is gone. */
export async function postgresRefusal(query: PostgresQuery, fence: LeaseFence, sessionId: string): Promise<StoreError | undefined> {
  const rows = await query<{ owner: string | null }>(
    'SELECT l.owner FROM sessions s LEFT JOIN session_leases l ON l.session_id = s.id WHERE s.id = $1',
    [sessionId],
  );
  return rows[0] === undefined ? undefined : fence.refusal(sessionId, rows[0].owner);
}

/** Milliseconds as an interval, for `now() + …`. */
const LEASE_INTERVAL = (param: string): string => `make_interval(secs => ${param}::double precision / 1000)`;

/** The registry and the leases on PostgreSQL, by its clock (now()). */
export class PostgresClusterStore implements ClusterStore {
  readonly shared = true;

  constructor(
    private readonly pool: pg.Pool,
    private readonly where: string,
    private readonly query: PostgresQuery,
    private readonly fence: LeaseFence,
  ) {}

  async registerDaemon(daemon: DaemonRegistration): Promise<void> {
    this.fence.actAs(daemon.id);
    await this.query(
      `INSERT INTO daemons (id, host, pid, roots, concurrency, lease_ms, started_at, heartbeat_at, running_turns)
       VALUES ($1, $2, $3, $4, $5, $6, now(), now(), 0)
       ON CONFLICT (id) DO UPDATE SET host = $2, pid = $3, roots = $4, concurrency = $5, lease_ms = $6,
         started_at = now(), heartbeat_at = now(), running_turns = 0`,
      [daemon.id, daemon.host, daemon.pid, JSON.stringify(daemon.roots), daemon.concurrency, daemon.leaseMs],
    );
  }

  async heartbeat(daemonId: string, state: { runningTurns: number }): Promise<void> {
    const rows = await this.query('UPDATE daemons SET heartbeat_at = now(), running_turns = $2 WHERE id = $1 RETURNING id', [daemonId, state.runningTurns]);
    if (rows.length === 0) throw unknownDaemon(daemonId);
  }

  async listDaemons(): Promise<DaemonInfo[]> {
    const rows = await this.query<DaemonRow>(
      `SELECT d.*, (EXTRACT(EPOCH FROM (now() - d.heartbeat_at)) * 1000)::bigint AS age_ms,
         (SELECT array_agg(l.session_id ORDER BY l.session_id) FROM session_leases l WHERE l.owner = d.id AND l.expires_at > now()) AS owned
       FROM daemons d ORDER BY d.started_at, d.id`,
    );
    return rows.map((row) => {
      const age = Math.max(0, Number(row.age_ms));
      return {
        id: row.id,
        host: row.host,
        pid: row.pid,
        roots: JSON.parse(row.roots) as string[],
        concurrency: row.concurrency,
        leaseMs: row.lease_ms,
        startedAt: row.started_at.toISOString(),
        heartbeatAt: row.heartbeat_at.toISOString(),
        heartbeatAgeMs: age,
        alive: age < row.lease_ms,
        runningTurns: row.running_turns,
        sessionsOwned: row.owned ?? [],
      };
    });
  }

  async forgetDaemon(daemonId: string): Promise<void> {
    await inTransaction(this.pool, this.where, async (query) => {
      await query('UPDATE session_leases SET owner = NULL, expires_at = now() WHERE owner = $1', [daemonId]);
      await query('DELETE FROM daemons WHERE id = $1', [daemonId]);
    });
    if (daemonId === this.fence.daemonId) for (const [sessionId] of this.fence.claimed()) this.fence.released(sessionId);
  }

  async forgetGoneDaemon(daemonId: string, goneForMs: number): Promise<boolean> {
    return inTransaction(this.pool, this.where, async (query) => {
      const gone = await query(
        `DELETE FROM daemons WHERE id = $1 AND heartbeat_at < now() - ${LEASE_INTERVAL('$2')} RETURNING id`,
        [daemonId, goneForMs],
      );
      if (gone.length === 0) return false;
      const released = await query<{ session_id: string }>(
        'UPDATE session_leases SET owner = NULL, epoch = epoch + 1, expires_at = now() WHERE owner = $1 AND expires_at <= now() RETURNING session_id',
        [daemonId],
      );
      await query(`UPDATE turns SET status = 'interrupted', ended_at = $2, error = $3 WHERE session_id = ANY($1::text[]) AND status = 'running'`, [
        released.map((row) => row.session_id),
        new Date().toISOString(),
        stoppedRenewing(daemonId),
      ]);
      return true;
    });
  }

  async claimSession(sessionId: string, daemonId: string, leaseMs: number): Promise<LeaseClaim> {
    this.fence.actAs(daemonId);
    const claim = await inTransaction(this.pool, this.where, async (query): Promise<LeaseClaim> => {
      if ((await query('SELECT 1 FROM sessions WHERE id = $1', [sessionId])).length === 0) {
        throw new StoreError('not_found', `session ${JSON.stringify(sessionId)} does not exist; create it first or list sessions to find its id`);
      }
      // The row exists from the first claim on, so concurrent claims queue on its lock.
      await query(`INSERT INTO session_leases (session_id, owner, epoch, expires_at) VALUES ($1, NULL, 0, now()) ON CONFLICT (session_id) DO NOTHING`, [sessionId]);
      const rows = await query<LeaseRow>(
        'SELECT session_id, owner, epoch, expires_at, expires_at > now() AS live FROM session_leases WHERE session_id = $1 FOR UPDATE',
        [sessionId],
      );
      const lease = rows[0]!;
      const mine = lease.owner === daemonId;
      if (lease.owner !== null && !mine && lease.live) return { heldBy: lease.owner, expiresAt: lease.expires_at.toISOString() };
      const epoch = mine ? Number(lease.epoch) : Number(lease.epoch) + 1;
      await query(`UPDATE session_leases SET owner = $2, epoch = $3, expires_at = now() + ${LEASE_INTERVAL('$4')} WHERE session_id = $1`, [
        sessionId,
        daemonId,
        epoch,
        leaseMs,
      ]);
      // Taken from an owner that is gone: its turns were cut short, as start-up recovery marks them.
      if (lease.owner !== null && !mine) {
        await query(
          `UPDATE turns SET status = 'interrupted', ended_at = $2, error = $3 WHERE session_id = $1 AND status = 'running'`,
          [sessionId, new Date().toISOString(), stoppedRenewing(lease.owner)],
        );
      }
      return { epoch };
    });
    if ('epoch' in claim) this.fence.held(sessionId, claim.epoch);
    return claim;
  }

  async renewLeases(daemonId: string, leaseMs: number): Promise<string[]> {
    const before = this.fence.claimed();
    const rows = await this.query<{ session_id: string; epoch: string }>(
      `UPDATE session_leases SET expires_at = now() + ${LEASE_INTERVAL('$2')} WHERE owner = $1 RETURNING session_id, epoch`,
      [daemonId, leaseMs],
    );
    const renewed = new Map(rows.map((row) => [row.session_id, Number(row.epoch)]));
    return this.fence.newlyLost(renewed, before);
  }

  async releaseSession(sessionId: string, daemonId: string): Promise<void> {
    const epoch = this.fence.epochOf(sessionId);
    this.fence.released(sessionId);
    await this.query(
      'UPDATE session_leases SET owner = NULL, expires_at = now() WHERE session_id = $1 AND owner = $2 AND ($3::bigint IS NULL OR epoch = $3::bigint)',
      [sessionId, daemonId, epoch],
    );
  }

  async leaseOf(sessionId: string): Promise<SessionLease | undefined> {
    const rows = await this.query<LeaseRow>(
      'SELECT session_id, owner, epoch, expires_at, (owner IS NOT NULL AND expires_at > now()) AS live FROM session_leases WHERE session_id = $1',
      [sessionId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { sessionId: row.session_id, owner: row.owner, epoch: Number(row.epoch), expiresAt: row.expires_at.toISOString(), live: row.live };
  }
}

function unknownDaemon(id: string): StoreError {
  return new StoreError('not_found', `daemon ${JSON.stringify(id)} is not registered (it was forgotten); register it again`);
}
