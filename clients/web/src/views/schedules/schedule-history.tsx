import { useEffect, useState } from 'preact/hooks';
import type { Schedule, ScheduleRun } from '../../../../../protocol/index.js';
import { errorText } from '../error-text.js';
import type { ViewClient } from '../view-client.js';
import { ScheduleHistoryTable } from './schedule-history-table.js';

const PAGE = 20;

/** The history section's id, which the row's History button controls. */
export const SCHEDULE_HISTORY_ID = 'schedule-history';

export interface ScheduleHistoryProps {
  client: ViewClient;
  schedule: Schedule;
  /** Bumped when one of its runs starts or finishes: the first page is read again. */
  version: number;
}

/** The run history of one schedule, a page at a time (`schedules/history`), newest first. */
export function ScheduleHistory({ client, schedule, version }: ScheduleHistoryProps) {
  const [runs, setRuns] = useState<ScheduleRun[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void client.request('schedules/history', { id: schedule.id, limit: PAGE }).then(
      (page) => {
        if (!current) return;
        setRuns(page.runs);
        setNextCursor(page.nextCursor);
        setError(null);
      },
      (failure: unknown) => current && setError(errorText(failure)),
    );
    return () => {
      current = false;
    };
  }, [client, schedule.id, version]);

  const older = (): void => {
    if (!nextCursor) return;
    void client.request('schedules/history', { id: schedule.id, limit: PAGE, cursor: nextCursor }).then(
      (page) => {
        setRuns((shown) => [...(shown ?? []), ...page.runs]);
        setNextCursor(page.nextCursor);
      },
      (failure: unknown) => setError(errorText(failure)),
    );
  };

  return (
    <section id={SCHEDULE_HISTORY_ID} class="schedule-history" aria-label={`History of ${schedule.name}`}>
      {error ? (
        <p role="alert" class="view-error">
          {`Could not load the history of ${schedule.name}: ${error}`}
        </p>
      ) : null}
      {runs ? <ScheduleHistoryTable name={schedule.name} runs={runs} /> : error ? null : <p class="view-loading">Loading runs…</p>}
      {nextCursor ? (
        <button type="button" onClick={older}>
          Show older runs
        </button>
      ) : null}
    </section>
  );
}
