import type Database from 'better-sqlite3';
import type { ScheduleRunOutcome, ScheduleRunTrigger, StopReason } from '../../protocol/index.js';
import type { ScheduleRunEnd, ScheduleRunRecord, ScheduleStore, StoredSchedule } from './schedule-store.js';
import { StoreError } from './store-error.js';
import { toJsonColumn } from './store-rows.js';

interface ScheduleRow {
  id: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

interface RunRow {
  /** SQLite's insertion order: breaks ties between runs started in the same millisecond. */
  rowid: number;
  id: string;
  schedule_id: string;
  session_id: string | null;
  trigger: ScheduleRunTrigger;
  started_at: string;
  ended_at: string | null;
  outcome: ScheduleRunOutcome | null;
  stop_reason: StopReason | null;
  cost_usd: number;
  error: string | null;
}

const DEFAULT_PAGE = 20;
const MAX_PAGE = 200;

/** `ScheduleStore` on the daemon's database; every mutating method is one statement, done at once (see SqliteStore). */
export class SqliteScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => string,
  ) {}

  async listSchedules(): Promise<StoredSchedule[]> {
    return (this.db.prepare('SELECT * FROM schedules ORDER BY name').all() as ScheduleRow[]).map(toSchedule);
  }

  async getSchedule(id: string): Promise<StoredSchedule | undefined> {
    return this.readSchedule(id);
  }

  private readSchedule(id: string): StoredSchedule | undefined {
    const row = this.db.prepare('SELECT * FROM schedules WHERE id = ?').get(id) as ScheduleRow | undefined;
    return row ? toSchedule(row) : undefined;
  }

  async saveSchedule(schedule: { id: string; name: string; definition: Record<string, unknown> }): Promise<StoredSchedule> {
    const now = this.now();
    try {
      this.db
        .prepare(
          `INSERT INTO schedules (id, name, definition, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, definition = excluded.definition, updated_at = excluded.updated_at`,
        )
        .run(schedule.id, schedule.name, toJsonColumn(schedule.definition, 'definition'), now, now);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new StoreError('conflict', `a schedule named ${JSON.stringify(schedule.name)} already exists; choose another name`, { cause: error });
      }
      throw error;
    }
    return this.readSchedule(schedule.id)!;
  }

  async deleteSchedule(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM schedules WHERE id = ?').run(id).changes > 0;
  }

  async startRun(run: { id: string; scheduleId: string; sessionId: string | null; trigger: ScheduleRunTrigger }): Promise<ScheduleRunRecord> {
    this.db
      .prepare('INSERT INTO schedule_runs (id, schedule_id, session_id, trigger, started_at) VALUES (?, ?, ?, ?, ?)')
      .run(run.id, run.scheduleId, run.sessionId, run.trigger, this.now());
    return this.requireRun(run.id);
  }

  async finishRun(id: string, end: ScheduleRunEnd): Promise<ScheduleRunRecord> {
    const changed = this.db
      .prepare('UPDATE schedule_runs SET ended_at = ?, outcome = ?, stop_reason = ?, cost_usd = ?, error = ? WHERE id = ? AND ended_at IS NULL')
      .run(this.now(), end.outcome, end.stopReason ?? null, end.costUsd ?? 0, end.error ?? null, id).changes;
    if (changed === 0) throw new StoreError('conflict', `schedule run ${JSON.stringify(id)} does not exist or has already ended`);
    return this.requireRun(id);
  }

  async lastRun(scheduleId: string): Promise<ScheduleRunRecord | undefined> {
    const row = this.db
      .prepare('SELECT rowid, * FROM schedule_runs WHERE schedule_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1')
      .get(scheduleId) as RunRow | undefined;
    return row ? toRun(row) : undefined;
  }

  async listRuns(scheduleId: string, page: { cursor?: string; limit?: number }): Promise<{ runs: ScheduleRunRecord[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(1, Math.floor(page.limit ?? DEFAULT_PAGE)), MAX_PAGE);
    const after = page.cursor !== undefined ? decodeRunCursor(page.cursor) : undefined;
    // One row more than asked tells whether another page follows.
    const rows = (
      after
        ? this.db
            .prepare(
              `SELECT rowid, * FROM schedule_runs WHERE schedule_id = ? AND (started_at < ? OR (started_at = ? AND rowid < ?))
               ORDER BY started_at DESC, rowid DESC LIMIT ?`,
            )
            .all(scheduleId, after.startedAt, after.startedAt, after.rowid, limit + 1)
        : this.db.prepare('SELECT rowid, * FROM schedule_runs WHERE schedule_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?').all(scheduleId, limit + 1)
    ) as RunRow[];
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return { runs: shown.map(toRun), nextCursor: rows.length > limit && last ? encodeRunCursor(last) : null };
  }

  async recoverUnfinishedRuns(): Promise<ScheduleRunRecord[]> {
    const rows = this.db
      .prepare(`UPDATE schedule_runs SET ended_at = ?, outcome = 'failed', error = ? WHERE ended_at IS NULL RETURNING *`)
      .all(this.now(), 'agentd stopped while this run was going (the daemon was killed or crashed)') as RunRow[];
    return rows.map(toRun);
  }

  private requireRun(id: string): ScheduleRunRecord {
    const row = this.db.prepare('SELECT * FROM schedule_runs WHERE id = ?').get(id) as RunRow | undefined;
    if (!row) throw new StoreError('not_found', `schedule run ${JSON.stringify(id)} does not exist`);
    return toRun(row);
  }
}

function toSchedule(row: ScheduleRow): StoredSchedule {
  return { id: row.id, name: row.name, definition: JSON.parse(row.definition) as Record<string, unknown>, createdAt: row.created_at, updatedAt: row.updated_at };
}

function toRun(row: RunRow): ScheduleRunRecord {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    sessionId: row.session_id,
    trigger: row.trigger,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    outcome: row.outcome,
    stopReason: row.stop_reason,
    costUsd: row.cost_usd,
    error: row.error,
  };
}

/** base64url of `[startedAt, rowid]` of the page's last run, like the session list's cursor. */
function encodeRunCursor(row: RunRow): string {
  return Buffer.from(JSON.stringify([row.started_at, row.rowid]), 'utf8').toString('base64url');
}

function decodeRunCursor(cursor: string): { startedAt: string; rowid: number } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || typeof decoded[0] !== 'string' || !Number.isInteger(decoded[1])) {
    throw new StoreError(
      'invalid_argument',
      `invalid schedule history cursor ${JSON.stringify(cursor)}: pass the nextCursor of a previous history result unchanged, or omit it to start from the newest run`,
    );
  }
  return { startedAt: decoded[0], rowid: decoded[1] as number };
}
