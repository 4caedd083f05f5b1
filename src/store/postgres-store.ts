import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ClusterStore } from './cluster-store.js';
import { LeaseFence } from './lease-fence.js';
import { pendingPromptGone } from './pending-prompt-rows.js';
import type { PendingPromptStore } from './pending-prompt-store.js';
import { PostgresPendingPrompts } from './postgres-pending-prompts.js';
import { migratePostgres } from './migrate-postgres.js';
import { PostgresClusterStore, postgresFence, postgresRefusal } from './postgres-cluster-store.js';
import { isUniqueViolation, redactStoreUrl, toStoreError } from './postgres-errors.js';
import { type PostgresQuery, inTransaction, queryOn } from './postgres-query.js';
import { PostgresScheduleStore } from './postgres-schedule-store.js';
import { costTotals, lastTurn, searchSessions } from './postgres-session-search.js';
import type { ScheduleStore } from './schedule-store.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';
import {
  DEFAULT_SESSION_MODE,
  type CostQuery,
  type DayModelCost,
  type ListSessionsQuery,
  type MessageRecord,
  type NewMessage,
  type NewSession,
  type SessionRecord,
  type SessionSearch,
  type SessionSearchPage,
  type Store,
  type TurnRecord,
  type TurnStatus,
} from './store.js';
import { StoreError } from './store-error.js';
import {
  type MessageRow,
  requireText,
  sessionPageSize,
  sessionPatchColumns,
  type SessionRow,
  toJsonColumn,
  toMessageRecord,
  toSessionRecord,
  type TurnRow,
  toTurnRecord,
} from './store-rows.js';

export interface PostgresStoreOptions {
  /** Clock for every timestamp the store writes; defaults to `new Date()`. */
  now?: () => Date;
  /** Connections the pool keeps at most; 10 by default. */
  maxConnections?: number;
}

/**
 * Connects to the PostgreSQL database at `url`, migrates it (once, under an advisory lock,
 * whichever daemon comes first) and returns the store on it. Fails with a StoreError naming
 * the store, its password redacted, when the server cannot be reached or refuses.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const where = redactStoreUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, connectionTimeoutMillis: 10_000 });
  // An idle client's dropped connection is reported here; the next query gets a fresh one.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client, where);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw toStoreError(error, where);
  }
  return new PostgresStore(pool, where, options);
}

/**
 * `Store` on a PostgreSQL pool, with the SQLite store's semantics (sqlite-store.ts): each
 * mutating call is one statement or one transaction. appendMessage takes its seq from the
 * session's row under its lock, so concurrent writers (other connections, other daemons)
 * get seq numbers one after another: dense, in commit order.
 */
export class PostgresStore implements Store {
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #query: PostgresQuery;
  readonly #now: () => string;
  readonly #fence = new LeaseFence();
  readonly schedules: ScheduleStore;
  readonly cluster: ClusterStore;
  readonly pendingPrompts: PendingPromptStore;

  constructor(pool: pg.Pool, where: string, options: PostgresStoreOptions = {}) {
    this.#pool = pool;
    this.#where = where;
    this.#query = queryOn(pool, where);
    const clock = options.now ?? (() => new Date());
    this.#now = () => clock().toISOString();
    this.schedules = new PostgresScheduleStore(this.#query, this.#now);
    this.cluster = new PostgresClusterStore(pool, where, this.#query, this.#fence);
    this.pendingPrompts = new PostgresPendingPrompts(pool, where, this.#query, this.#fence, this.#now);
  }

  async createSession(input: NewSession): Promise<SessionRecord> {
    requireText(input.id, 'session id');
    requireText(input.cwd, 'session cwd');
    const now = this.#now();
    try {
      const rows = await this.#query<SessionRow>(
        `INSERT INTO sessions (id, cwd, additional_directories, title, model, mode, created_at, updated_at, meta)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) RETURNING *`,
        [
          input.id,
          input.cwd,
          toJsonColumn(input.additionalDirectories ?? [], 'additionalDirectories'),
          input.title ?? null,
          input.model ?? null,
          input.mode ?? DEFAULT_SESSION_MODE,
          now,
          toJsonColumn(input.meta ?? {}, 'meta'),
        ],
      );
      return toSessionRecord(rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error, 'sessions_pkey')) {
        throw new StoreError('conflict', `session ${JSON.stringify(input.id)} already exists; choose a new session id`, { cause: error });
      }
      throw error;
    }
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const rows = await this.#query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : toSessionRecord(rows[0]);
  }

  async listSessions(query: ListSessionsQuery): Promise<{ sessions: SessionRecord[]; nextCursor: string | null }> {
    const limit = sessionPageSize(query.limit);
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.cwd !== undefined) {
      params.push(query.cwd);
      where.push(`cwd = $${params.length}`);
    }
    if (query.cursor !== undefined) {
      const after = decodeSessionCursor(query.cursor);
      params.push(after.updatedAt, after.id);
      where.push(`(updated_at < $${params.length - 1} OR (updated_at = $${params.length - 1} AND id < $${params.length}))`);
    }
    params.push(limit + 1);
    const rows = await this.#query<SessionRow>(
      `SELECT * FROM sessions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY updated_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const page = rows.slice(0, limit).map(toSessionRecord);
    const last = page[page.length - 1];
    return { sessions: page, nextCursor: rows.length > limit && last !== undefined ? encodeSessionCursor(last) : null };
  }

  async searchSessions(search: SessionSearch): Promise<SessionSearchPage> {
    return searchSessions(this.#query, search);
  }

  async lastTurn(sessionId: string): Promise<TurnRecord | undefined> {
    return lastTurn(this.#query, sessionId);
  }

  async updateSession(
    id: string,
    patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode' | 'meta' | 'additionalDirectories'>>,
  ): Promise<SessionRecord> {
    const columns = sessionPatchColumns(patch, this.#now());
    const sets = columns.map(([column], index) => `${column} = $${index + 1}`).join(', ');
    const fence = postgresFence(this.#fence, id, 'sessions.id', columns.length + 2);
    const rows = await this.#query<SessionRow>(`UPDATE sessions SET ${sets} WHERE id = $${columns.length + 1} AND ${fence.sql} RETURNING *`, [
      ...columns.map(([, value]) => value),
      id,
      ...fence.params,
    ]);
    if (rows[0] === undefined) throw await this.#whyUnchanged(id);
    return toSessionRecord(rows[0]);
  }

  async addSessionCost(id: string, usd: number): Promise<void> {
    const fence = postgresFence(this.#fence, id, 'sessions.id', 4);
    const rows = await this.#query(`UPDATE sessions SET total_cost_usd = total_cost_usd + $1, updated_at = $2 WHERE id = $3 AND ${fence.sql} RETURNING id`, [
      usd,
      this.#now(),
      id,
      ...fence.params,
    ]);
    if (rows.length === 0) throw await this.#whyUnchanged(id);
  }

  async deleteSession(id: string): Promise<boolean> {
    // Turns and messages go with it through ON DELETE CASCADE.
    const fence = postgresFence(this.#fence, id, 'sessions.id', 2);
    if ((await this.#query(`DELETE FROM sessions WHERE id = $1 AND ${fence.sql} RETURNING id`, [id, ...fence.params])).length > 0) {
      this.#fence.released(id);
      return true;
    }
    const refusal = await postgresRefusal(this.#query, this.#fence, id);
    if (refusal !== undefined) throw refusal;
    return false;
  }

  async startTurn(sessionId: string, turnId: string): Promise<TurnRecord> {
    requireText(turnId, 'turn id');
    return inTransaction(this.#pool, this.#where, async (query) => {
      const fence = postgresFence(this.#fence, sessionId, 'sessions.id', 2);
      if ((await query(`SELECT 1 FROM sessions WHERE id = $1 AND ${fence.sql}`, [sessionId, ...fence.params])).length === 0) {
        throw (await postgresRefusal(query, this.#fence, sessionId)) ?? unknownSession(sessionId);
      }
      if ((await query('SELECT 1 FROM turns WHERE id = $1', [turnId])).length > 0) {
        throw new StoreError('conflict', `turn ${JSON.stringify(turnId)} already exists; use a new turn id`);
      }
      const rows = await query<TurnRow>(`INSERT INTO turns (id, session_id, status, started_at) VALUES ($1, $2, 'running', $3) RETURNING *`, [
        turnId,
        sessionId,
        this.#now(),
      ]);
      return toTurnRecord(rows[0]!);
    });
  }

  async endTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, error: string | null = null): Promise<void> {
    await inTransaction(this.#pool, this.#where, async (query) => {
      const owner = (await query<Pick<TurnRow, 'session_id'>>('SELECT session_id FROM turns WHERE id = $1', [turnId]))[0];
      if (owner === undefined) throw new StoreError('not_found', `turn ${JSON.stringify(turnId)} does not exist; call startTurn first`);
      // The lease before the turn's row, in the order a takeover locks them (claimSession), so the two never deadlock.
      const fence = postgresFence(this.#fence, owner.session_id, '$1', 2);
      if (!(await query<{ ok: boolean }>(`SELECT ${fence.sql} AS ok`, [owner.session_id, ...fence.params]))[0]!.ok) {
        throw (await postgresRefusal(query, this.#fence, owner.session_id))!;
      }
      const row = (await query<Pick<TurnRow, 'status'>>('SELECT status FROM turns WHERE id = $1 FOR UPDATE', [turnId]))[0]!;
      if (row.status !== 'running') {
        throw new StoreError('conflict', `turn ${JSON.stringify(turnId)} already ended with status "${row.status}"; a turn can end only once`);
      }
      await query('UPDATE turns SET status = $1, ended_at = $2, error = $3 WHERE id = $4', [status, this.#now(), error, turnId]);
    });
  }

  async listTurns(sessionId: string): Promise<TurnRecord[]> {
    return (await this.#query<TurnRow>('SELECT * FROM turns WHERE session_id = $1 ORDER BY started_at, ord', [sessionId])).map(toTurnRecord);
  }

  async appendMessage(message: NewMessage): Promise<MessageRecord> {
    if (!Array.isArray(message.content)) throw new StoreError('invalid_argument', 'message content must be an array of content blocks');
    const cost = message.costUsd ?? null;
    if (cost !== null && !(Number.isFinite(cost) && cost >= 0)) {
      throw new StoreError('invalid_argument', `message costUsd must be a finite number >= 0, got ${String(cost)}`);
    }
    const content = toJsonColumn(message.content, 'content');
    const usage = message.usage == null ? null : toJsonColumn(message.usage, 'usage');
    const meta = message.meta == null ? null : toJsonColumn(message.meta, 'meta');
    const id = message.id ?? randomUUID();
    const status = message.status ?? 'complete';
    const model = message.model ?? null;
    const createdAt = this.#now();
    const fence = postgresFence(this.#fence, message.sessionId, 'sessions.id', 13);
    let seq: number;
    try {
      // One statement, so one round trip and atomic: the UPDATE locks the session's row and
      // (re-reading it once a concurrent appender commits) takes the next seq from it, so
      // writers on any connection get dense seqs in commit order. No session, no row.
      const append = (query: PostgresQuery): Promise<Array<{ seq: number }>> => query<{ seq: number }>(
        `WITH session AS (
           UPDATE sessions SET last_seq = last_seq + 1, total_cost_usd = total_cost_usd + $1, updated_at = $2
           WHERE id = $3 AND ${fence.sql} RETURNING last_seq
         )
         INSERT INTO messages (session_id, seq, id, turn_id, role, content, status, model, usage, cost_usd, meta, created_at)
         SELECT $3, session.last_seq, $4, $5, $6, $7, $8, $9, $10, $11, $12, $2 FROM session
         RETURNING seq`,
        [cost ?? 0, createdAt, message.sessionId, id, message.turnId, message.role, content, status, model, usage, cost, meta, ...fence.params],
      );
      const pendingId = message.pendingPromptId;
      // Delivered once: the pending prompt goes in the append's transaction, or the append fails.
      const rows = pendingId === undefined
        ? await append(this.#query)
        : await inTransaction(this.#pool, this.#where, async (query) => {
            const removed = await query('DELETE FROM pending_prompts WHERE id = $1 AND claimed_by IS NULL RETURNING id', [pendingId]);
            if (removed.length === 0) throw pendingPromptGone(pendingId);
            const appended = await append(query);
            // Rolled back with the removal: the prompt stays pending.
            if (appended.length === 0) throw (await postgresRefusal(query, this.#fence, message.sessionId)) ?? unknownSession(message.sessionId);
            return appended;
          });
      if (rows[0] === undefined) throw await this.#whyUnchanged(message.sessionId);
      seq = rows[0].seq;
    } catch (error) {
      if (isUniqueViolation(error, 'messages_id_key')) {
        throw new StoreError('conflict', `message ${JSON.stringify(message.id)} already exists; omit id to get a fresh one`, { cause: error });
      }
      throw error;
    }
    // The caller's own data, not the row read back and parsed again: it is what was stored.
    return {
      seq,
      id,
      sessionId: message.sessionId,
      turnId: message.turnId,
      role: message.role,
      content: message.content,
      status,
      model,
      usage: message.usage ?? null,
      costUsd: cost,
      meta: message.meta ?? null,
      createdAt,
    };
  }

  async costTotals(query: CostQuery): Promise<DayModelCost[]> {
    return costTotals(this.#query, query);
  }

  async listMessages(sessionId: string): Promise<MessageRecord[]> {
    return (await this.#query<MessageRow>('SELECT * FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId])).map(toMessageRecord);
  }

  async recoverInterruptedTurns(): Promise<TurnRecord[]> {
    // Only turns whose session no live daemon holds: another daemon's running turns go on.
    const rows = await this.#query<TurnRow>(
      `UPDATE turns SET status = 'interrupted', ended_at = $1, error = $2 WHERE status = 'running'
         AND NOT EXISTS (SELECT 1 FROM session_leases l WHERE l.session_id = turns.session_id AND l.owner IS NOT NULL AND l.expires_at > now())
       RETURNING *`,
      [this.#now(), 'agentd stopped while this turn was running'],
    );
    return rows.map(toTurnRecord).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  async close(): Promise<void> {
    // Once: a daemon stopped after its store was closed under it (a test's kill) closes it again.
    if (this.#pool.ended) return;
    await this.#pool.end();
  }

  /** A fenced write changed nothing: the lease is another's, or the session does not exist. */
  async #whyUnchanged(sessionId: string): Promise<StoreError> {
    return (await postgresRefusal(this.#query, this.#fence, sessionId)) ?? unknownSession(sessionId);
  }
}

function unknownSession(id: string): StoreError {
  return new StoreError('not_found', `session ${JSON.stringify(id)} does not exist; create it first or list sessions to find its id`);
}


