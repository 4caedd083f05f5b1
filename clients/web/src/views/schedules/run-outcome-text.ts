import type { ScheduleRun } from '../../../../../protocol/index.js';

const OUTCOME: Record<NonNullable<ScheduleRun['outcome']>, string> = {
  completed: 'completed',
  failed: 'failed',
  timed_out: 'timed out',
  cancelled: 'cancelled',
  skipped: 'skipped',
};

/** A run's outcome in words ("running" while it has none), and whether it went wrong. */
export function runOutcomeText(run: Pick<ScheduleRun, 'outcome'>): { text: string; bad: boolean } {
  if (run.outcome === null) return { text: 'running', bad: false };
  return { text: OUTCOME[run.outcome], bad: run.outcome === 'failed' || run.outcome === 'timed_out' };
}
