import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Schedule } from '../../../../../protocol/index.js';
import { errorText } from '../error-text.js';
import type { ViewClient } from '../view-client.js';
import { applyRunEvent, type LastRun } from './apply-run-event.js';

export interface SchedulesState {
  /** null until the first `schedules/list` answer. */
  schedules: Schedule[] | null;
  lastRuns: ReadonlyMap<string, LastRun>;
  error: string | null;
  /** Per schedule, bumped at each of its run events (its open history reads again). */
  runEvents: ReadonlyMap<string, number>;
  /** Reads the list and each schedule's newest run again. */
  reload: () => Promise<void>;
  /** Shows a schedule as given (an answer of `schedules/update`, or what a pending change will make it). */
  replace: (schedule: Schedule) => void;
}

/**
 * The schedule list with each schedule's newest run, kept live: `schedules/list`, one
 * `schedules/history` page of one row per schedule, then `schedule_run_started` and
 * `schedule_run_finished` daemon events (a finished run also moves the next run time, so
 * the list is read again then).
 */
export function useSchedules(client: ViewClient): SchedulesState {
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [lastRuns, setLastRuns] = useState<ReadonlyMap<string, LastRun>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [runEvents, setRunEvents] = useState<ReadonlyMap<string, number>>(new Map());

  const reload = useCallback(async () => {
    try {
      const { schedules: list } = await client.request('schedules/list', {});
      const newest = await Promise.all(list.map((s) => client.request('schedules/history', { id: s.id, limit: 1 })));
      const runs = new Map<string, LastRun>();
      newest.forEach((page, i) => page.runs[0] && runs.set(list[i]!.id, page.runs[0]));
      setSchedules(list);
      setLastRuns(runs);
      setError(null);
    } catch (failure) {
      setError(errorText(failure));
    }
  }, [client]);

  useEffect(() => void reload(), [reload]);

  useEffect(
    () =>
      client.onNotification('agentd/daemonEvent', ({ event }) => {
        if (event.type !== 'schedule_run_started' && event.type !== 'schedule_run_finished') return;
        setLastRuns((runs) => applyRunEvent(runs, event));
        setRunEvents((counts) => new Map(counts).set(event.scheduleId, (counts.get(event.scheduleId) ?? 0) + 1));
        if (event.type === 'schedule_run_finished') void reload();
      }),
    [client, reload],
  );

  const replace = useCallback((schedule: Schedule) => setSchedules((list) => list && list.map((s) => (s.id === schedule.id ? schedule : s))), []);

  return { schedules, lastRuns, error, runEvents, reload, replace };
}
