import type { ScheduleRun } from '../../protocol/index.js';
import type { ScheduleRunRecord } from '../store/schedule-store.js';

/** A history row as `schedules/history` answers it. */
export function toScheduleRun(record: ScheduleRunRecord): ScheduleRun {
  return {
    runId: record.id,
    scheduleId: record.scheduleId,
    sessionId: record.sessionId,
    trigger: record.trigger,
    ...(record.dueAt !== null ? { dueAt: record.dueAt } : {}),
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    outcome: record.outcome,
    stopReason: record.stopReason,
    costUsd: record.costUsd,
    error: record.error,
  };
}
