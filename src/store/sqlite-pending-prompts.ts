import type Database from 'better-sqlite3';
import type { LeaseFence } from './lease-fence.js';
import { pendingPromptContent, type PendingPromptRow, queuingDaemon, toPendingPrompt } from './pending-prompt-rows.js';
import type { NewPendingPrompt, PendingPrompt, PendingPromptStore } from './pending-prompt-store.js';
import { SQLITE_NOW_MS, sqliteFence, sqliteFenceParams, sqliteRefusal } from './sqlite-cluster-store.js';
import { StoreError } from './store-error.js';

/** Whether the daemon named by `ref` is registered with a heartbeat younger than its lease, by SQLite's clock. */
const alive = (ref: string): string => `EXISTS (SELECT 1 FROM daemons d WHERE d.id = ${ref} AND d.heartbeat_at > ${SQLITE_NOW_MS} - d.lease_ms)`;

/** PendingPromptStore on the daemon's SQLite database; each call is one statement. */
export class SqlitePendingPrompts implements PendingPromptStore {
  constructor(
    private readonly db: Database.Database,
    private readonly fence: LeaseFence,
    private readonly now: () => string,
  ) {}

  async add(prompt: NewPendingPrompt): Promise<PendingPrompt> {
    const content = pendingPromptContent(prompt);
    const daemonId = queuingDaemon(this.fence.daemonId);
    let row: PendingPromptRow | undefined;
    try {
      row = this.db
        .prepare(
          `INSERT INTO pending_prompts (id, session_id, queue, content, origin, daemon_id, created_at)
           SELECT @id, @sessionId, @queue, @content, @origin, @daemonId, @createdAt FROM sessions
           WHERE sessions.id = @sessionId AND ${sqliteFence('sessions.id')} RETURNING *`,
        )
        .get({ ...prompt, content, daemonId, createdAt: this.now(), ...sqliteFenceParams(this.fence, prompt.sessionId) }) as PendingPromptRow | undefined;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new StoreError('conflict', `pending prompt ${JSON.stringify(prompt.id)} already exists; use a new id`, { cause: error });
      }
      throw error;
    }
    if (row === undefined) {
      throw (
        sqliteRefusal(this.db, this.fence, prompt.sessionId) ??
        new StoreError('not_found', `session ${JSON.stringify(prompt.sessionId)} does not exist; create it first or list sessions to find its id`)
      );
    }
    return toPendingPrompt(row);
  }

  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.prepare(`DELETE FROM pending_prompts WHERE id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(ids)).changes;
  }

  async list(sessionId: string): Promise<PendingPrompt[]> {
    return (this.db.prepare('SELECT * FROM pending_prompts WHERE session_id = ? ORDER BY ord').all(sessionId) as PendingPromptRow[]).map(toPendingPrompt);
  }

  async claimOrphans(daemonId: string): Promise<PendingPrompt[]> {
    // One statement: atomic, and SQLite runs one writer at a time.
    const rows = this.db
      .prepare(
        `UPDATE pending_prompts SET claimed_by = @daemonId
         WHERE daemon_id <> @daemonId AND NOT ${alive('pending_prompts.daemon_id')}
           AND NOT EXISTS (SELECT 1 FROM session_leases l WHERE l.session_id = pending_prompts.session_id
                           AND l.owner = pending_prompts.daemon_id AND l.expires_at > ${SQLITE_NOW_MS})
           AND (claimed_by IS NULL OR claimed_by = @daemonId OR NOT ${alive('pending_prompts.claimed_by')})
         RETURNING *`,
      )
      .all({ daemonId }) as PendingPromptRow[];
    return rows.map(toPendingPrompt).sort((a, b) => a.order - b.order);
  }

  async giveBack(ids: readonly string[], daemonId: string): Promise<void> {
    if (ids.length === 0) return;
    this.db.prepare('UPDATE pending_prompts SET claimed_by = NULL WHERE claimed_by = ? AND id IN (SELECT value FROM json_each(?))').run(daemonId, JSON.stringify(ids));
  }
}
