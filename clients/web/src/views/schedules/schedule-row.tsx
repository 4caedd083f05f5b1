import type { Schedule } from '../../../../../protocol/index.js';
import type { LastRun } from './apply-run-event.js';
import { formatTime } from '../format/format-time.js';
import { RemoveConfirm } from './remove-confirm.js';
import { SCHEDULE_HISTORY_ID } from './schedule-history.js';
import { runOutcomeText } from './run-outcome-text.js';

export interface ScheduleRowActions {
  onRun: (schedule: Schedule) => void;
  onToggle: (schedule: Schedule, enabled: boolean) => void;
  onEdit: (schedule: Schedule) => void;
  onAskRemove: (schedule: Schedule) => void;
  onRemove: (schedule: Schedule) => void;
  onCancelRemove: () => void;
  onHistory: (schedule: Schedule) => void;
}

export interface ScheduleRowProps extends ScheduleRowActions {
  schedule: Schedule;
  /** Its newest run, if it has run. */
  lastRun: LastRun | undefined;
  confirmingRemove: boolean;
  historyOpen: boolean;
  busy: boolean;
}

/**
 * One schedule: when it runs next, whether it is enabled, how its last run went, and its
 * actions. A schedule from config.json can be run and its history read, but changing it
 * means editing the file, so those controls are left out and the row says so.
 */
export function ScheduleRow(props: ScheduleRowProps) {
  const { schedule: s, lastRun, busy } = props;
  const readOnly = s.source === 'config';
  const last = lastRun ? runOutcomeText(lastRun) : undefined;
  return (
    <tr>
      <th scope="row">
        {s.name}
        {readOnly ? <small class="schedule-source"> (config.json)</small> : null}
      </th>
      <td>
        <code>{s.cron}</code> <small>{s.timezone}</small>
      </td>
      <td>{s.nextRunAt ? <time dateTime={s.nextRunAt}>{formatTime(s.nextRunAt)}</time> : 'none'}</td>
      <td>
        <label class="schedule-enabled">
          <input
            type="checkbox"
            checked={s.enabled}
            disabled={readOnly}
            aria-label={`Enabled: ${s.name}`}
            onChange={(event) => props.onToggle(s, event.currentTarget.checked)}
          />
          {s.enabled ? ' on' : ' off'}
        </label>
      </td>
      <td class={last?.bad ? 'schedule-bad' : undefined}>
        {lastRun && last ? (
          <>
            {last.text} <time dateTime={lastRun.startedAt}>{formatTime(lastRun.startedAt)}</time>
          </>
        ) : (
          'never run'
        )}
      </td>
      <td class="schedule-actions">
        {props.confirmingRemove ? (
          <RemoveConfirm name={s.name} busy={busy} onConfirm={() => props.onRemove(s)} onCancel={props.onCancelRemove} />
        ) : (
          <>
            {/* aria-disabled, not disabled: a disabled button drops the keyboard's focus. */}
            <button type="button" aria-disabled={busy} onClick={() => !busy && props.onRun(s)} aria-label={`Run ${s.name} now`}>
              Run now
            </button>
            <button
              type="button"
              aria-expanded={props.historyOpen}
              aria-controls={props.historyOpen ? SCHEDULE_HISTORY_ID : undefined}
              onClick={() => props.onHistory(s)}
              aria-label={`History of ${s.name}`}
            >
              History
            </button>
            {readOnly ? null : (
              <>
                <button type="button" onClick={() => props.onEdit(s)} aria-label={`Edit ${s.name}`}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => props.onAskRemove(s)} aria-label={`Remove ${s.name}`}>
                  Remove
                </button>
              </>
            )}
          </>
        )}
      </td>
    </tr>
  );
}
