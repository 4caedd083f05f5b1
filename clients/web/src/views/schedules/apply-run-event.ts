import type { DaemonEventOf, ScheduleRun } from '../../../../../protocol/index.js';

/** What the schedule list shows of a schedule's newest run (a history row and the run events both carry it). */
export type LastRun = Pick<ScheduleRun, 'runId' | 'sessionId' | 'startedAt' | 'endedAt' | 'outcome' | 'error'>;

type RunEvent = DaemonEventOf<'schedule_run_started'> | DaemonEventOf<'schedule_run_finished'>;

/**
 * The newest run of each schedule after a run event: a started run becomes the newest,
 * running; a finished one settles the row it started (or, skipped without starting, is a
 * run of its own that started and ended at once). Returns a new map, the old one untouched.
 */
export function applyRunEvent(lastRuns: ReadonlyMap<string, LastRun>, event: RunEvent): Map<string, LastRun> {
  const next = new Map(lastRuns);
  if (event.type === 'schedule_run_started') {
    const { runId, sessionId, startedAt } = event;
    next.set(event.scheduleId, { runId, sessionId, startedAt, endedAt: null, outcome: null, error: null });
    return next;
  }
  const shown = lastRuns.get(event.scheduleId);
  const same = shown?.runId === event.runId ? shown : undefined;
  // The finish of an older run (a queued one's predecessor) never replaces a newer run shown.
  if (shown && !same && Date.parse(shown.startedAt) > Date.parse(event.endedAt)) return next;
  next.set(event.scheduleId, {
    runId: event.runId,
    sessionId: event.sessionId,
    startedAt: same?.startedAt ?? event.endedAt,
    endedAt: event.endedAt,
    outcome: event.outcome,
    error: event.error ?? null,
  });
  return next;
}
