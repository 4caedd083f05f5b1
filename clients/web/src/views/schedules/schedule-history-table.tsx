import type { ScheduleRun } from '../../../../../protocol/index.js';
import { durationBetween, formatDuration } from '../format/format-duration.js';
import { formatTime } from '../format/format-time.js';
import { formatUsd } from '../format/format-usd.js';
import { sessionHref } from '../../shell/route.js';
import { runOutcomeText } from './run-outcome-text.js';

/** A schedule's runs, newest first: when, why, how it went, how long, what it cost, and its session. */
export function ScheduleHistoryTable({ name, runs }: { name: string; runs: readonly ScheduleRun[] }) {
  if (runs.length === 0) return <p>{`${name} has not run yet.`}</p>;
  return (
    <table class="schedule-history-table">
      <caption>{`Runs of ${name}`}</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Trigger</th>
          <th scope="col">Outcome</th>
          <th scope="col">Duration</th>
          <th scope="col">Cost</th>
          <th scope="col">Session</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => {
          const outcome = runOutcomeText(run);
          const duration = durationBetween(run.startedAt, run.endedAt);
          return (
            <tr key={run.runId}>
              <td>
                <time dateTime={run.startedAt}>{formatTime(run.startedAt)}</time>
              </td>
              <td>{run.trigger}</td>
              <td class={outcome.bad ? 'schedule-bad' : undefined}>
                {outcome.text}
                {run.stopReason && run.stopReason !== 'end_turn' ? ` (${run.stopReason})` : ''}
                {run.error ? <div class="schedule-run-error">{run.error}</div> : null}
              </td>
              <td>{duration === null ? 'running' : formatDuration(duration)}</td>
              <td>{formatUsd(run.costUsd)}</td>
              <td>
                {run.sessionId ? (
                  <a href={sessionHref(run.sessionId)} aria-label={`Open the session of the run started ${formatTime(run.startedAt)}`}>
                    Open session
                  </a>
                ) : (
                  'none'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
