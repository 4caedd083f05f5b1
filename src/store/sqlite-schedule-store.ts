import type Database from 'better-sqlite3';
import type { IsRunAbandoned, NewScheduleRun, ScheduleRunEnd, ScheduleRunRecord, ScheduleStore, StartRunResult, StoredSchedule } from './schedule-store.js';
import { StoreError } from './store-error.js';
import { ABANDONED_RUN_ERROR, type RunColumns, runPageSize, type ScheduleRow, decodeRunCursor, encodeRunCursor, toRun, toSchedule } from './schedule-rows.js';
import { toJsonColumn } from './store-rows.js';

interface RunRow extends RunColumns {
  /** SQLite's insertion order: breaks ties between runs started in the same millisecond. */
  rowid: number;
}

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

  async startRun(run: NewScheduleRun): Promise<StartRunResult> {
    // Only a second row for the same (schedule, due time) is passed over; a reused run id still fails.
    const inserted = this.db
      .prepare(
        `INSERT INTO schedule_runs (id, schedule_id, session_id, trigger, due_at, daemon_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (schedule_id, due_at) WHERE due_at IS NOT NULL DO NOTHING`,
      )
      .run(run.id, run.scheduleId, run.sessionId, run.trigger, run.dueAt ?? null, run.daemonId ?? null, this.now()).changes;
    if (inserted > 0) return { status: 'started', run: this.requireRun(run.id) };
    const row = this.db.prepare('SELECT * FROM schedule_runs WHERE schedule_id = ? AND due_at = ?').get(run.scheduleId, run.dueAt) as RunRow;
    return { status: 'taken', run: toRun(row) };
  }

  async setRunSession(id: string, sessionId: string): Promise<ScheduleRunRecord> {
    if (this.db.prepare('UPDATE schedule_runs SET session_id = ? WHERE id = ?').run(sessionId, id).changes === 0) {
      throw new StoreError('not_found', `schedule run ${JSON.stringify(id)} does not exist`);
    }
    return this.requireRun(id);
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
    const limit = runPageSize(page.limit);
    const after = page.cursor !== undefined ? decodeRunCursor(page.cursor) : undefined;
    // One row more than asked tells whether another page follows.
    const rows = (
      after
        ? this.db
            .prepare(
              `SELECT rowid, * FROM schedule_runs WHERE schedule_id = ? AND (started_at < ? OR (started_at = ? AND rowid < ?))
               ORDER BY started_at DESC, rowid DESC LIMIT ?`,
            )
            .all(scheduleId, after.startedAt, after.startedAt, after.order, limit + 1)
        : this.db.prepare('SELECT rowid, * FROM schedule_runs WHERE schedule_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?').all(scheduleId, limit + 1)
    ) as RunRow[];
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return { runs: shown.map(toRun), nextCursor: rows.length > limit && last ? encodeRunCursor(last.started_at, last.rowid) : null };
  }

  async recoverUnfinishedRuns(isAbandoned: IsRunAbandoned = async () => true): Promise<ScheduleRunRecord[]> {
    const unfinished = (this.db.prepare('SELECT * FROM schedule_runs WHERE ended_at IS NULL').all() as RunRow[]).map(toRun);
    const end = this.db.prepare(`UPDATE schedule_runs SET ended_at = ?, outcome = 'failed', error = ? WHERE id = ? AND ended_at IS NULL RETURNING *`);
    const recovered: ScheduleRunRecord[] = [];
    for (const run of unfinished) {
      if (!(await isAbandoned(run))) continue;
      // Ended meanwhile by the daemon that ran it: left as it recorded.
      const row = end.get(this.now(), ABANDONED_RUN_ERROR, run.id) as RunRow | undefined;
      if (row) recovered.push(toRun(row));
    }
    return recovered;
  }

  private requireRun(id: string): ScheduleRunRecord {
    const row = this.db.prepare('SELECT * FROM schedule_runs WHERE id = ?').get(id) as RunRow | undefined;
    if (!row) throw new StoreError('not_found', `schedule run ${JSON.stringify(id)} does not exist`);
    return toRun(row);
  }
}

