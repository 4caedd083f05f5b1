import type { PostgresQuery } from './postgres-query.js';
import { isUniqueViolation } from './postgres-errors.js';
import type { ScheduleRunTrigger } from '../../protocol/index.js';
import type { ScheduleRunEnd, ScheduleRunRecord, ScheduleStore, StoredSchedule } from './schedule-store.js';
import { StoreError } from './store-error.js';
import { type RunColumns, runPageSize, type ScheduleRow, decodeRunCursor, encodeRunCursor, toRun, toSchedule } from './schedule-rows.js';
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

  async startRun(run: { id: string; scheduleId: string; sessionId: string | null; trigger: ScheduleRunTrigger }): Promise<ScheduleRunRecord> {
    const rows = await this.query<RunRow>(
      'INSERT INTO schedule_runs (id, schedule_id, session_id, trigger, started_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [run.id, run.scheduleId, run.sessionId, run.trigger, this.now()],
    );
    return toRun(rows[0]!);
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

  async recoverUnfinishedRuns(): Promise<ScheduleRunRecord[]> {
    const rows = await this.query<RunRow>(
      `UPDATE schedule_runs SET ended_at = $1, outcome = 'failed', error = $2 WHERE ended_at IS NULL RETURNING *`,
      [this.now(), 'agentd stopped while this run was going (the daemon was killed or crashed)'],
    );
    return rows.map(toRun);
  }
}

