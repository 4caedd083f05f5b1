import type { Schedule } from '../../../../../protocol/index.js';
import type { LastRun } from './apply-run-event.js';
import { ScheduleRow, type ScheduleRowActions } from './schedule-row.js';

export interface ScheduleTableProps extends ScheduleRowActions {
  schedules: readonly Schedule[];
  /** Newest run by schedule id. */
  lastRuns: ReadonlyMap<string, LastRun>;
  confirmingRemove: string | null;
  historyOf: string | null;
  busy: ReadonlySet<string>;
}

/** Every schedule, one row each (config.json's first, as `schedules/list` orders them). */
export function ScheduleTable({ schedules, lastRuns, confirmingRemove, historyOf, busy, ...actions }: ScheduleTableProps) {
  if (schedules.length === 0) return <p>No schedules yet: add one to run a prompt by itself at set times.</p>;
  return (
    <table class="schedule-table">
      <caption>Schedules</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Cron</th>
          <th scope="col">Next run</th>
          <th scope="col">Enabled</th>
          <th scope="col">Last run</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {schedules.map((schedule) => (
          <ScheduleRow
            key={schedule.id}
            schedule={schedule}
            lastRun={lastRuns.get(schedule.id)}
            confirmingRemove={confirmingRemove === schedule.id}
            historyOpen={historyOf === schedule.id}
            busy={busy.has(schedule.id)}
            {...actions}
          />
        ))}
      </tbody>
    </table>
  );
}
