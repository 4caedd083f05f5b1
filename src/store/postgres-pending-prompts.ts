import type pg from 'pg';
import type { LeaseFence } from './lease-fence.js';
import { pendingPromptContent, type PendingPromptRow, queuingDaemon, toPendingPrompt } from './pending-prompt-rows.js';
import type { NewPendingPrompt, PendingPrompt, PendingPromptStore } from './pending-prompt-store.js';
import { isUniqueViolation } from './postgres-errors.js';
import { postgresFence, postgresRefusal } from './postgres-cluster-store.js';
import { type PostgresQuery, inTransaction } from './postgres-query.js';
import { StoreError } from './store-error.js';

/** Whether the daemon named by `ref` is registered with a heartbeat younger than its lease, by the database's clock. */
const alive = (ref: string): string =>
  `EXISTS (SELECT 1 FROM daemons d WHERE d.id = ${ref} AND d.heartbeat_at > now() - make_interval(secs => d.lease_ms::double precision / 1000))`;

/** Serialises rescues across daemons, so one claims all a gone daemon left and queues a session's prompts in order. */
const RESCUE_LOCK = "hashtext('agentd.pending_prompts.rescue')";

/** PendingPromptStore on the PostgreSQL store's pool. */
export class PostgresPendingPrompts implements PendingPromptStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly where: string,
    private readonly query: PostgresQuery,
    private readonly fence: LeaseFence,
    private readonly now: () => string,
  ) {}

  async add(prompt: NewPendingPrompt): Promise<PendingPrompt> {
    const content = pendingPromptContent(prompt);
    const daemonId = queuingDaemon(this.fence.daemonId);
    const fence = postgresFence(this.fence, prompt.sessionId, 'sessions.id', 8);
    let rows: PendingPromptRow[];
    try {
      rows = await this.query<PendingPromptRow>(
        `INSERT INTO pending_prompts (id, session_id, queue, content, origin, daemon_id, created_at)
         SELECT $1, $2, $3, $4, $5, $6, $7 FROM sessions WHERE sessions.id = $2 AND ${fence.sql} RETURNING *`,
        [prompt.id, prompt.sessionId, prompt.queue, content, prompt.origin, daemonId, this.now(), ...fence.params],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'pending_prompts_pkey')) {
        throw new StoreError('conflict', `pending prompt ${JSON.stringify(prompt.id)} already exists; use a new id`, { cause: error });
      }
      throw error;
    }
    if (rows[0] === undefined) {
      throw (
        (await postgresRefusal(this.query, this.fence, prompt.sessionId)) ??
        new StoreError('not_found', `session ${JSON.stringify(prompt.sessionId)} does not exist; create it first or list sessions to find its id`)
      );
    }
    return toPendingPrompt(rows[0]);
  }

  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.query('DELETE FROM pending_prompts WHERE id = ANY($1::text[]) RETURNING id', [ids])).length;
  }

  async list(sessionId: string): Promise<PendingPrompt[]> {
    return (await this.query<PendingPromptRow>('SELECT * FROM pending_prompts WHERE session_id = $1 ORDER BY ord', [sessionId])).map(toPendingPrompt);
  }

  async claimOrphans(daemonId: string): Promise<PendingPrompt[]> {
    const rows = await inTransaction(this.pool, this.where, async (query) => {
      await query(`SELECT pg_advisory_xact_lock(${RESCUE_LOCK})`);
      return query<PendingPromptRow>(
        `UPDATE pending_prompts p SET claimed_by = $1
         WHERE p.daemon_id <> $1 AND NOT ${alive('p.daemon_id')}
           AND NOT EXISTS (SELECT 1 FROM session_leases l WHERE l.session_id = p.session_id AND l.owner = p.daemon_id AND l.expires_at > now())
           AND (p.claimed_by IS NULL OR p.claimed_by = $1 OR NOT ${alive('p.claimed_by')})
         RETURNING p.*`,
        [daemonId],
      );
    });
    return rows.map(toPendingPrompt).sort((a, b) => a.order - b.order);
  }

  async giveBack(ids: readonly string[], daemonId: string): Promise<void> {
    if (ids.length === 0) return;
    await this.query('UPDATE pending_prompts SET claimed_by = NULL WHERE claimed_by = $1 AND id = ANY($2::text[])', [daemonId, ids]);
  }
}
