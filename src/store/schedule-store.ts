/**
 * The persistence contract of the scheduler: schedules added over the protocol and the
 * run history of every schedule. `sqlite-schedule-store.ts` implements it on the same
 * database as the sessions (`Store.schedules`).
 */
import type { ScheduleRunOutcome, ScheduleRunTrigger, StopReason } from '../../protocol/index.js';

/** A schedule added over the protocol, as stored. */
export interface StoredSchedule {
  /** `sch_…`, chosen by the scheduler. */
  id: string;
  /** Unique among stored schedules. */
  name: string;
  /** The schedule's other fields (cron, timezone, prompt, …), as the scheduler wrote them. */
  definition: Record<string, unknown>;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** ISO 8601 UTC. */
  updatedAt: string;
}

/** One run of a schedule, as stored. */
export interface ScheduleRunRecord {
  id: string;
  scheduleId: string;
  /** The session the run prompted; null when none was created. */
  sessionId: string | null;
  trigger: ScheduleRunTrigger;
  /** ISO 8601 UTC. */
  startedAt: string;
  /** ISO 8601 UTC; null while the run goes on. */
  endedAt: string | null;
  /** null while the run goes on. */
  outcome: ScheduleRunOutcome | null;
  stopReason: StopReason | null;
  costUsd: number;
  error: string | null;
}

/** How a run ended. */
export interface ScheduleRunEnd {
  outcome: ScheduleRunOutcome;
  stopReason?: StopReason | null;
  costUsd?: number;
  error?: string | null;
}

export interface ScheduleStore {
  /** Every stored schedule, by name. */
  listSchedules(): Promise<StoredSchedule[]>;
  getSchedule(id: string): Promise<StoredSchedule | undefined>;
  /** Inserts or replaces the schedule with this id; fails with `conflict` when another has the name. */
  saveSchedule(schedule: { id: string; name: string; definition: Record<string, unknown> }): Promise<StoredSchedule>;
  /** Returns false when it did not exist; its runs stay. */
  deleteSchedule(id: string): Promise<boolean>;
  /** Records a run that starts now (ended fields null). */
  startRun(run: { id: string; scheduleId: string; sessionId: string | null; trigger: ScheduleRunTrigger }): Promise<ScheduleRunRecord>;
  /** Sets the end of a run that is going on; fails for an unknown or already ended run. */
  finishRun(id: string, end: ScheduleRunEnd): Promise<ScheduleRunRecord>;
  /** The newest run of the schedule (any outcome), if any. */
  lastRun(scheduleId: string): Promise<ScheduleRunRecord | undefined>;
  /** Newest first; the cursor is opaque, limit default 20, at most 200. */
  listRuns(scheduleId: string, page: { cursor?: string; limit?: number }): Promise<{ runs: ScheduleRunRecord[]; nextCursor: string | null }>;
  /** At start-up: every run without an end (the daemon died during it) becomes failed; returns them. */
  recoverUnfinishedRuns(): Promise<ScheduleRunRecord[]>;
}
