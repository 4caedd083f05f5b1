import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ClusterStore } from './cluster-store.js';
import { LeaseFence } from './lease-fence.js';
import { pendingPromptGone } from './pending-prompt-rows.js';
import type { PendingPromptStore } from './pending-prompt-store.js';
import { SqlitePendingPrompts } from './sqlite-pending-prompts.js';
import type { ScheduleStore } from './schedule-store.js';
import { SQLITE_NOW_MS, SqliteClusterStore, sqliteFence, sqliteFenceParams, sqliteRefusal } from './sqlite-cluster-store.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';
import { costTotals } from './sqlite-cost-totals.js';
import { lastTurn, searchSessions } from './sqlite-session-search.js';
import { SqliteScheduleStore } from './sqlite-schedule-store.js';
import {
  DEFAULT_SESSION_MODE,
  type ListSessionsQuery,
  type MessageRecord,
  type NewMessage,
  type NewSession,
  type CostQuery,
  type DayModelCost,
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
  toTurnRecord,
  type TurnRow,
} from './store-rows.js';

/** Options for `SqliteStore`, mainly so tests can control timestamps. */
export interface SqliteStoreOptions {
  /** Clock for every timestamp the store writes; defaults to `new Date()`. */
  now?: () => Date;
}

/** The columns of one message row as appendMessage binds them (JSON columns as text). */
interface MessageInsert {
  sessionId: string;
  id: string;
  turnId: string;
  role: string;
  content: string;
  status: string;
  model: string | null;
  usage: string | null;
  cost: number | null;
  meta: string | null;
  createdAt: string;
  pendingPromptId: string | null;
}

/**
 * `Store` on a better-sqlite3 connection that `openStore` has configured and migrated.
 * Each mutating method is one statement or one transaction, so a crash leaves either
 * all of a call's writes or none of them. better-sqlite3 is synchronous: each method does
 * its work at once and returns it as one resolved promise (no other hop), so awaiting
 * it costs a microtask, not a turn of the event loop.
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #now: () => string;
  /** Prepared once per SQL text: compiling a statement cost more than running it (appendMessage's three took ~0.15 ms). */
  readonly #statements = new Map<string, Database.Statement>();
  #insertMessageTransaction: ((row: MessageInsert) => number) | undefined;
  readonly #fence = new LeaseFence();
  readonly schedules: ScheduleStore;
  readonly cluster: ClusterStore;
  readonly pendingPrompts: PendingPromptStore;

  constructor(db: Database.Database, options: SqliteStoreOptions = {}) {
    this.#db = db;
    const clock = options.now ?? (() => new Date());
    this.#now = () => clock().toISOString();
    this.schedules = new SqliteScheduleStore(db, this.#now);
    this.cluster = new SqliteClusterStore(db, this.#fence, this.#now);
    this.pendingPrompts = new SqlitePendingPrompts(db, this.#fence, this.#now);
  }

  async createSession(input: NewSession): Promise<SessionRecord> {
    requireText(input.id, 'session id');
    requireText(input.cwd, 'session cwd');
    const now = this.#now();
    try {
      this.#sql(
        `INSERT INTO sessions (id, cwd, additional_directories, title, model, mode, created_at, updated_at, meta)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        input.id,
        input.cwd,
        toJsonColumn(input.additionalDirectories ?? [], 'additionalDirectories'),
        input.title ?? null,
        input.model ?? null,
        input.mode ?? DEFAULT_SESSION_MODE,
        now,
        now,
        toJsonColumn(input.meta ?? {}, 'meta'),
      );
    } catch (error) {
      if (isConstraint(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        throw new StoreError('conflict', `session ${JSON.stringify(input.id)} already exists; choose a new session id`, {
          cause: error,
        });
      }
      throw error;
    }
    return this.#requireSession(input.id);
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#readSession(id);
  }

  #readSession(id: string): SessionRecord | undefined {
    const row = this.#sql('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row === undefined ? undefined : toSessionRecord(row);
  }

  async listSessions(query: ListSessionsQuery): Promise<{ sessions: SessionRecord[]; nextCursor: string | null }> {
    const limit = sessionPageSize(query.limit);
    const where: string[] = [];
    const params: string[] = [];
    if (query.cwd !== undefined) {
      where.push('cwd = ?');
      params.push(query.cwd);
    }
    if (query.cursor !== undefined) {
      const after = decodeSessionCursor(query.cursor);
      where.push('(updated_at < ? OR (updated_at = ? AND id < ?))');
      params.push(after.updatedAt, after.updatedAt, after.id);
    }
    // One extra row tells whether another page exists without a COUNT query.
    const rows = this.#sql(
      `SELECT * FROM sessions ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY updated_at DESC, id DESC LIMIT ?`,
    ).all(...params, limit + 1) as SessionRow[];
    const page = rows.slice(0, limit).map(toSessionRecord);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last !== undefined ? encodeSessionCursor(last) : null;
    return { sessions: page, nextCursor };
  }

  async searchSessions(search: SessionSearch): Promise<SessionSearchPage> {
    return searchSessions(this.#db, search);
  }

  async lastTurn(sessionId: string): Promise<TurnRecord | undefined> {
    return lastTurn(this.#db, sessionId);
  }

  async updateSession(
    id: string,
    patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode' | 'meta' | 'additionalDirectories'>>,
  ): Promise<SessionRecord> {
    const columns = sessionPatchColumns(patch, this.#now());
    const sets = columns.map(([column]) => `${column} = ?`).join(', ');
    const params = columns.map(([, value]) => value);
    const result = this.#sql(`UPDATE sessions SET ${sets} WHERE id = ? AND ${sqliteFence('sessions.id')}`).run(...params, id, this.#fenceParams(id));
    if (result.changes === 0) throw this.#whyUnchanged(id);
    return this.#requireSession(id);
  }

  async addSessionCost(id: string, usd: number): Promise<void> {
    const result = this.#sql(`UPDATE sessions SET total_cost_usd = total_cost_usd + ?, updated_at = ? WHERE id = ? AND ${sqliteFence('sessions.id')}`)
      .run(usd, this.#now(), id, this.#fenceParams(id));
    if (result.changes === 0) throw this.#whyUnchanged(id);
  }

  async deleteSession(id: string): Promise<boolean> {
    // Turns and messages go with it through ON DELETE CASCADE (foreign_keys=ON).
    if (this.#sql(`DELETE FROM sessions WHERE id = ? AND ${sqliteFence('sessions.id')}`).run(id, this.#fenceParams(id)).changes > 0) {
      this.#fence.released(id);
      return true;
    }
    const refusal = sqliteRefusal(this.#db, this.#fence, id);
    if (refusal !== undefined) throw refusal;
    return false;
  }

  async startTurn(sessionId: string, turnId: string): Promise<TurnRecord> {
    requireText(turnId, 'turn id');
    const start = this.#db.transaction((): TurnRecord => {
      if (this.#sql(`SELECT 1 FROM sessions WHERE id = ? AND ${sqliteFence('sessions.id')}`).get(sessionId, this.#fenceParams(sessionId)) === undefined) {
        throw this.#whyUnchanged(sessionId);
      }
      const existing = this.#sql('SELECT session_id FROM turns WHERE id = ?').get(turnId);
      if (existing !== undefined) {
        throw new StoreError('conflict', `turn ${JSON.stringify(turnId)} already exists; use a new turn id`);
      }
      const row = this.#sql(`INSERT INTO turns (id, session_id, status, started_at) VALUES (?, ?, 'running', ?) RETURNING *`)
        .get(turnId, sessionId, this.#now()) as TurnRow;
      return toTurnRecord(row);
    });
    return start();
  }

  async endTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, error: string | null = null): Promise<void> {
    const end = this.#db.transaction(() => {
      const row = this.#sql('SELECT status, session_id FROM turns WHERE id = ?').get(turnId) as
        | Pick<TurnRow, 'status' | 'session_id'>
        | undefined;
      if (row === undefined) {
        throw new StoreError('not_found', `turn ${JSON.stringify(turnId)} does not exist; call startTurn first`);
      }
      const fence = this.#sql(`SELECT ${sqliteFence('@fenceSession')} AS ok`).get({ fenceSession: row.session_id, ...this.#fenceParams(row.session_id) }) as { ok: number };
      if (fence.ok !== 1) throw this.#whyUnchanged(row.session_id);
      if (row.status !== 'running') {
        throw new StoreError(
          'conflict',
          `turn ${JSON.stringify(turnId)} already ended with status "${row.status}"; a turn can end only once`,
        );
      }
      this.#sql('UPDATE turns SET status = ?, ended_at = ?, error = ? WHERE id = ?')
        .run(status, this.#now(), error, turnId);
    });
    end();
  }

  async listTurns(sessionId: string): Promise<TurnRecord[]> {
    const rows = this.#sql('SELECT * FROM turns WHERE session_id = ? ORDER BY started_at, rowid')
      .all(sessionId) as TurnRow[];
    return rows.map(toTurnRecord);
  }

  async appendMessage(message: NewMessage): Promise<MessageRecord> {
    if (!Array.isArray(message.content)) {
      throw new StoreError('invalid_argument', 'message content must be an array of content blocks');
    }
    const cost = message.costUsd ?? null;
    if (cost !== null && !(Number.isFinite(cost) && cost >= 0)) {
      throw new StoreError('invalid_argument', `message costUsd must be a finite number >= 0, got ${String(cost)}`);
    }
    const content = toJsonColumn(message.content, 'content');
    const usage = message.usage == null ? null : toJsonColumn(message.usage, 'usage');
    const meta = message.meta == null ? null : toJsonColumn(message.meta, 'meta');
    const id = message.id ?? randomUUID();
    const status = message.status ?? 'complete';
    try {
      const createdAt = this.#now();
      const model = message.model ?? null;
      const pendingPromptId = message.pendingPromptId ?? null;
      const seq = this.#insertMessage({ sessionId: message.sessionId, id, turnId: message.turnId, role: message.role, content, status, model, usage, cost, meta, createdAt, pendingPromptId });
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
    } catch (error) {
      if (isConstraint(error, 'SQLITE_CONSTRAINT_UNIQUE')) {
        throw new StoreError('conflict', `message ${JSON.stringify(message.id)} already exists; omit id to get a fresh one`, { cause: error });
      }
      throw error;
    }
  }

  async costTotals(query: CostQuery): Promise<DayModelCost[]> {
    return costTotals(this.#db, query);
  }

  async listMessages(sessionId: string): Promise<MessageRecord[]> {
    // Row by row rather than .all(): each row's JSON text is garbage once parsed, and dies
    // young instead of surviving, with every other row, into the old generation (a
    // 10,000-message session spent less than half the time in GC this way).
    const records: MessageRecord[] = [];
    for (const row of this.#sql('SELECT * FROM messages WHERE session_id = ? ORDER BY seq').iterate(sessionId)) {
      records.push(toMessageRecord(row as MessageRow));
    }
    return records;
  }

  async recoverInterruptedTurns(): Promise<TurnRecord[]> {
    // One daemon holds a data directory at a time (its lock): every running turn and every
    // other daemon's lease (and registration) is a previous owner's, gone now, however
    // recently it renewed.
    const recover = this.#db.transaction((): TurnRow[] => {
      this.#sql(`UPDATE session_leases SET owner = NULL, expires_at = ${SQLITE_NOW_MS} WHERE owner IS NOT NULL AND owner IS NOT ?`).run(this.#fence.daemonId);
      this.#sql('DELETE FROM daemons WHERE id IS NOT ?').run(this.#fence.daemonId);
      return this.#sql(
        `UPDATE turns SET status = 'interrupted', ended_at = ?, error = ?
         WHERE status = 'running' RETURNING *`,
      ).all(this.#now(), 'agentd stopped while this turn was running') as TurnRow[];
    });
    return recover().map(toTurnRecord).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  /**
   * One transaction: the message goes in first and the session total second, so the
   * transaction is what keeps them consistent (if the update fails, the insert is rolled
   * back too). Built once, on first use: better-sqlite3's wrapper costs a little to build.
   */
  #insertMessage(row: MessageInsert): number {
    this.#insertMessageTransaction ??= this.#db.transaction((values: MessageInsert): number => {
      const fenced = `SELECT 1 FROM sessions WHERE id = ? AND ${sqliteFence('sessions.id')}`;
      if (this.#sql(fenced).get(values.sessionId, this.#fenceParams(values.sessionId)) === undefined) throw this.#whyUnchanged(values.sessionId);
      // Delivered once: the pending prompt goes with this append, or the append fails.
      if (values.pendingPromptId !== null && this.#sql('DELETE FROM pending_prompts WHERE id = ? AND claimed_by IS NULL').run(values.pendingPromptId).changes === 0) {
        throw pendingPromptGone(values.pendingPromptId);
      }
      const { seq } = this.#sql(
        `INSERT INTO messages (session_id, seq, id, turn_id, role, content, status, model, usage, cost_usd, meta, created_at)
         VALUES (@sessionId, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE session_id = @sessionId),
                 @id, @turnId, @role, @content, @status, @model, @usage, @cost, @meta, @createdAt)
         RETURNING seq`,
      ).get(values) as { seq: number };
      this.#sql('UPDATE sessions SET total_cost_usd = total_cost_usd + ?, updated_at = ? WHERE id = ?').run(values.cost ?? 0, values.createdAt, values.sessionId);
      return seq;
    });
    return this.#insertMessageTransaction(row);
  }

  #fenceParams(sessionId: string): { fenceOwner: string | null; fenceEpoch: number | null } {
    return sqliteFenceParams(this.#fence, sessionId);
  }

  /** A fenced write changed nothing: the lease is another's, or the session does not exist. */
  #whyUnchanged(sessionId: string): StoreError {
    return sqliteRefusal(this.#db, this.#fence, sessionId) ?? unknownSession(sessionId);
  }

  #sql(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (statement === undefined) {
      statement = this.#db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  #requireSession(id: string): SessionRecord {
    const session = this.#readSession(id);
    if (session === undefined) throw unknownSession(id);
    return session;
  }
}

function unknownSession(id: string): StoreError {
  return new StoreError(
    'not_found',
    `session ${JSON.stringify(id)} does not exist; create it first or list sessions to find its id`,
  );
}



function isConstraint(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
