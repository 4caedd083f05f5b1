import type { ScheduleRunOutcome, ScheduleRunTrigger, StopReason } from '../../protocol/index.js';
import type { ScheduleRunRecord, StoredSchedule } from './schedule-store.js';
import { StoreError } from './store-error.js';

/*
 * The schedule tables' rows as both stores read them, and the history cursor they share:
 * one shape, so a cursor means the same on SQLite and PostgreSQL.
 */

export interface ScheduleRow {
  id: string;
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

/** A schedule_runs row without its insertion-order column (SQLite's rowid, PostgreSQL's ord). */
export interface RunColumns {
  id: string;
  schedule_id: string;
  session_id: string | null;
  trigger: ScheduleRunTrigger;
  due_at: string | null;
  daemon_id: string | null;
  started_at: string;
  ended_at: string | null;
  outcome: ScheduleRunOutcome | null;
  stop_reason: StopReason | null;
  cost_usd: number;
  error: string | null;
}

export function toSchedule(row: ScheduleRow): StoredSchedule {
  return { id: row.id, name: row.name, definition: JSON.parse(row.definition) as Record<string, unknown>, createdAt: row.created_at, updatedAt: row.updated_at };
}

export function toRun(row: RunColumns): ScheduleRunRecord {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    sessionId: row.session_id,
    trigger: row.trigger,
    dueAt: row.due_at,
    daemonId: row.daemon_id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    outcome: row.outcome,
    stopReason: row.stop_reason,
    costUsd: row.cost_usd,
    error: row.error,
  };
}

/** Why recovery ends a run: said in its row's error. */
export const ABANDONED_RUN_ERROR = 'agentd stopped while this run was going (the daemon was killed or crashed)';

const DEFAULT_RUN_PAGE = 20;
const MAX_RUN_PAGE = 200;

/** A history page's size: 20 when unset, between 1 and 200. */
export function runPageSize(limit: number | undefined): number {
  return Math.min(Math.max(1, Math.floor(limit ?? DEFAULT_RUN_PAGE)), MAX_RUN_PAGE);
}

/** base64url of `[startedAt, order]` of the page's last run (order breaks ties in one millisecond). */
export function encodeRunCursor(startedAt: string, order: number): string {
  return Buffer.from(JSON.stringify([startedAt, order]), 'utf8').toString('base64url');
}

export function decodeRunCursor(cursor: string): { startedAt: string; order: number } {
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
  return { startedAt: decoded[0], order: decoded[1] as number };
}
