import type { PostgresQuery } from './postgres-query.js';
import { isUniqueViolation } from './postgres-errors.js';
import type { IsRunAbandoned, NewScheduleRun, ScheduleRunEnd, ScheduleRunRecord, ScheduleStore, StartRunResult, StoredSchedule } from './schedule-store.js';
import { StoreError } from './store-error.js';
import { ABANDONED_RUN_ERROR, type RunColumns, runPageSize, type ScheduleRow, decodeRunCursor, encodeRunCursor, toRun, toSchedule } from './schedule-rows.js';
import { toJsonColumn } from './store-rows.js';

interface RunRow extends RunColumns {
  /** Insertion order (an identity column, as text: bigint): breaks ties between runs started in the same millisecond. */
  ord: string;
}

/** `ScheduleStore` on the PostgreSQL store's pool, with the SQLite one's semantics and cursor shape. */
export class PostgresScheduleStore implements ScheduleStore {
  constructor(
    private readonly query: PostgresQuery,
    private readonly now: () => string,
  ) {}

  async listSchedules(): Promise<StoredSchedule[]> {
    return (await this.query<ScheduleRow>('SELECT * FROM schedules ORDER BY name')).map(toSchedule);
  }

  async getSchedule(id: string): Promise<StoredSchedule | undefined> {
    const rows = await this.query<ScheduleRow>('SELECT * FROM schedules WHERE id = $1', [id]);
    return rows[0] ? toSchedule(rows[0]) : undefined;
  }

  async saveSchedule(schedule: { id: string; name: string; definition: Record<string, unknown> }): Promise<StoredSchedule> {
    const now = this.now();
    try {
      const rows = await this.query<ScheduleRow>(
        `INSERT INTO schedules (id, name, definition, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, definition = excluded.definition, updated_at = excluded.updated_at
         RETURNING *`,
        [schedule.id, schedule.name, toJsonColumn(schedule.definition, 'definition'), now],
      );
      return toSchedule(rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error, 'schedules_name_key')) {
        throw new StoreError('conflict', `a schedule named ${JSON.stringify(schedule.name)} already exists; choose another name`, { cause: error });
      }
      throw error;
    }
  }

  async deleteSchedule(id: string): Promise<boolean> {
    return (await this.query('DELETE FROM schedules WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  async startRun(run: NewScheduleRun): Promise<StartRunResult> {
    // Only a second row for the same (schedule, due time) is passed over; a reused run id still fails.
    // An insert racing another daemon's waits for its commit, then does nothing.
    const inserted = await this.query<RunRow>(
      `INSERT INTO schedule_runs (id, schedule_id, session_id, trigger, due_at, daemon_id, started_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (schedule_id, due_at) WHERE due_at IS NOT NULL DO NOTHING RETURNING *`,
      [run.id, run.scheduleId, run.sessionId, run.trigger, run.dueAt ?? null, run.daemonId ?? null, this.now()],
    );
    if (inserted[0] !== undefined) return { status: 'started', run: toRun(inserted[0]) };
    const taken = await this.query<RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = $1 AND due_at = $2', [run.scheduleId, run.dueAt]);
    return { status: 'taken', run: toRun(taken[0]!) };
  }

  async setRunSession(id: string, sessionId: string): Promise<ScheduleRunRecord> {
    const rows = await this.query<RunRow>('UPDATE schedule_runs SET session_id = $1 WHERE id = $2 RETURNING *', [sessionId, id]);
    if (rows[0] === undefined) throw new StoreError('not_found', `schedule run ${JSON.stringify(id)} does not exist`);
    return toRun(rows[0]);
  }

  async finishRun(id: string, end: ScheduleRunEnd): Promise<ScheduleRunRecord> {
    const rows = await this.query<RunRow>(
      `UPDATE schedule_runs SET ended_at = $1, outcome = $2, stop_reason = $3, cost_usd = $4, error = $5
       WHERE id = $6 AND ended_at IS NULL RETURNING *`,
      [this.now(), end.outcome, end.stopReason ?? null, end.costUsd ?? 0, end.error ?? null, id],
    );
    if (rows[0] === undefined) throw new StoreError('conflict', `schedule run ${JSON.stringify(id)} does not exist or has already ended`);
    return toRun(rows[0]);
  }

  async lastRun(scheduleId: string): Promise<ScheduleRunRecord | undefined> {
    const rows = await this.query<RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = $1 ORDER BY started_at DESC, ord DESC LIMIT 1', [scheduleId]);
    return rows[0] ? toRun(rows[0]) : undefined;
  }

  async listRuns(scheduleId: string, page: { cursor?: string; limit?: number }): Promise<{ runs: ScheduleRunRecord[]; nextCursor: string | null }> {
    const limit = runPageSize(page.limit);
    const after = page.cursor !== undefined ? decodeRunCursor(page.cursor) : undefined;
    // One row more than asked tells whether another page follows.
    const rows = after
      ? await this.query<RunRow>(
          `SELECT * FROM schedule_runs WHERE schedule_id = $1 AND (started_at < $2 OR (started_at = $2 AND ord < $3))
           ORDER BY started_at DESC, ord DESC LIMIT $4`,
          [scheduleId, after.startedAt, after.order, limit + 1],
        )
      : await this.query<RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = $1 ORDER BY started_at DESC, ord DESC LIMIT $2', [scheduleId, limit + 1]);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return { runs: shown.map(toRun), nextCursor: rows.length > limit && last ? encodeRunCursor(last.started_at, Number(last.ord)) : null };
  }

  async recoverUnfinishedRuns(isAbandoned: IsRunAbandoned = async () => true): Promise<ScheduleRunRecord[]> {
    const unfinished = (await this.query<RunRow>('SELECT * FROM schedule_runs WHERE ended_at IS NULL')).map(toRun);
    const recovered: ScheduleRunRecord[] = [];
    for (const run of unfinished) {
      if (!(await isAbandoned(run))) continue;
      // Ended meanwhile by the daemon that ran it: left as it recorded.
      const rows = await this.query<RunRow>(
        `UPDATE schedule_runs SET ended_at = $1, outcome = 'failed', error = $2 WHERE id = $3 AND ended_at IS NULL RETURNING *`,
        [this.now(), ABANDONED_RUN_ERROR, run.id],
      );
      if (rows[0] !== undefined) recovered.push(toRun(rows[0]));
    }
    return recovered;
  }
}
