/**
 * The persistence contract of the scheduler: schedules added over the protocol and the
 * run history of every schedule. `sqlite-schedule-store.ts` and `postgres-schedule-store.ts`
 * implement it on the same database as the sessions (`Store.schedules`).
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
  /** When a cron or missed run was due (ISO 8601 UTC); null for a manual run. One run per (schedule, due time). */
  dueAt: string | null;
  /** The daemon that recorded the run and runs it (`dmn_…`); null when not said (older rows). */
  daemonId: string | null;
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

/** A run about to start. */
export interface NewScheduleRun {
  id: string;
  scheduleId: string;
  sessionId: string | null;
  trigger: ScheduleRunTrigger;
  /**
   * When a cron or missed run was due (ISO 8601 UTC): daemons sharing the store insert the
   * same (schedule, due time) and only the first gets it. Omitted for a manual run, which is
   * never deduplicated.
   */
  dueAt?: string;
  /** The daemon recording it, which runs it: what tells recovery whether the run still has someone alive behind it. */
  daemonId?: string;
}

/** What `startRun` did: recorded the run, or found its due time taken by a run already recorded (another daemon's). */
export type StartRunResult = { status: 'started'; run: ScheduleRunRecord } | { status: 'taken'; run: ScheduleRunRecord };

/**
 * Whether recovery may end an unfinished run: true when nothing alive runs it any more —
 * where daemons share the store, when its `daemonId` is no live daemon's.
 */
export type IsRunAbandoned = (run: ScheduleRunRecord) => Promise<boolean>;

export interface ScheduleStore {
  /** Every stored schedule, by name. */
  listSchedules(): Promise<StoredSchedule[]>;
  getSchedule(id: string): Promise<StoredSchedule | undefined>;
  /** Inserts or replaces the schedule with this id; fails with `conflict` when another has the name. */
  saveSchedule(schedule: { id: string; name: string; definition: Record<string, unknown> }): Promise<StoredSchedule>;
  /** Returns false when it did not exist; its runs stay. */
  deleteSchedule(id: string): Promise<boolean>;
  /**
   * Records a run that starts now (ended fields null), unless a run of the same schedule and
   * due time is recorded already: then nothing is written and that run is returned as `taken`.
   * The database's unique index decides, so two daemons inserting at once get one each.
   */
  startRun(run: NewScheduleRun): Promise<StartRunResult>;
  /** Records the session a started run prompted (made after the run was recorded); fails for an unknown run. */
  setRunSession(id: string, sessionId: string): Promise<ScheduleRunRecord>;
  /** Sets the end of a run that is going on; fails for an unknown or already ended run. */
  finishRun(id: string, end: ScheduleRunEnd): Promise<ScheduleRunRecord>;
  /** The newest run of the schedule (any outcome), if any. */
  lastRun(scheduleId: string): Promise<ScheduleRunRecord | undefined>;
  /** Newest first; the cursor is opaque, limit default 20, at most 200. */
  listRuns(scheduleId: string, page: { cursor?: string; limit?: number }): Promise<{ runs: ScheduleRunRecord[]; nextCursor: string | null }>;
  /**
   * At start-up: runs without an end whose daemon died during them become failed; returns
   * them. `isAbandoned` says which unfinished runs nothing alive runs any more (daemons
   * sharing the store run each other's); without it every unfinished run is (one daemon).
   */
  recoverUnfinishedRuns(isAbandoned?: IsRunAbandoned): Promise<ScheduleRunRecord[]>;
}
