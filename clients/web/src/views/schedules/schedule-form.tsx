import { useEffect, useState } from 'preact/hooks';
import type { SchedulePermissionMode, ScheduleOverlap } from '../../../../../protocol/index.js';
import { FormField } from './form-field.js';
import type { FormIssues, ScheduleFormValues } from './schedule-form-values.js';

export interface ScheduleFormProps {
  /** The schedule's name when editing; absent when adding. */
  editing?: string;
  initial: ScheduleFormValues;
  /** Problems by field, from the form's own check or the daemon's InvalidParams issues. */
  issues: FormIssues;
  /** Problems that name no field (the daemon's whole message when its issues do not split). */
  general: readonly string[];
  busy: boolean;
  onSubmit: (values: ScheduleFormValues) => void;
  onCancel: () => void;
}

const PERMISSION_MODES: Array<[SchedulePermissionMode, string]> = [
  ['ask', 'ask (refuse what would ask)'],
  ['acceptEdits', 'accept edits'],
  ['bypass', 'bypass (run all but denied)'],
  ['deny', 'deny whatever would ask'],
];
const OVERLAPS: Array<[ScheduleOverlap, string]> = [
  ['skip', 'skip the run'],
  ['queue', 'queue it after the running one'],
];

/** Add or edit a schedule: every field of the protocol's schedule, problems beside each. */
export function ScheduleForm({ editing, initial, issues, general, busy, onSubmit, onCancel }: ScheduleFormProps) {
  const [values, setValues] = useState(initial);
  // Opening the form moves the keyboard into it (the button that opened it may now be disabled).
  useEffect(() => document.getElementById('schedule-name')?.focus(), []);
  const set = <K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]): void => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: keyof ScheduleFormValues) => (event: Event) => set(key, (event.currentTarget as HTMLInputElement).value as never);
  const heading = editing ? `Edit schedule ${editing}` : 'Add a schedule';
  const field = (id: keyof ScheduleFormValues, protocolField: keyof FormIssues, label: string, hint?: string, multiline = false) => (
    <FormField id={`schedule-${id}`} label={label} {...(hint ? { hint } : {})} problem={issues[protocolField]}>
      {({ describedBy, invalid }) =>
        multiline ? (
          <textarea id={`schedule-${id}`} rows={4} value={values[id] as string} onInput={text(id)} aria-describedby={describedBy} aria-invalid={invalid} />
        ) : (
          <input id={`schedule-${id}`} type="text" value={values[id] as string} onInput={text(id)} aria-describedby={describedBy} aria-invalid={invalid} />
        )
      }
    </FormField>
  );
  return (
    <form
      class="schedule-form"
      aria-labelledby="schedule-form-heading"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      <h2 id="schedule-form-heading">{heading}</h2>
      {general.length > 0 ? (
        <div role="alert" class="form-problems">
          {general.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}
      {field('name', 'name', 'Name', 'Unique; also the title of each run\'s session.')}
      {field('cron', 'cron', 'Cron', '5 fields (minute hour day month weekday), 6 with seconds first, or "@daily".')}
      {field('timezone', 'timezone', 'Time zone', editing ? 'IANA name, like "Europe/Berlin".' : 'IANA name, like "Europe/Berlin"; empty: the daemon\'s own.')}
      {field('prompt', 'prompt', 'Prompt', undefined, true)}
      {field('cwd', 'cwd', 'Working folder', 'Absolute path of an existing folder.')}
      {field('agent', 'agent', 'Agent', 'Like "build"; empty: the project\'s default.')}
      {field('model', 'model', 'Model', '"provider/model"; empty: the project\'s default.')}
      {field('timeoutSeconds', 'timeoutMs', 'Timeout (seconds)', editing ? undefined : 'Empty: 180.')}
      {field('budgetUsd', 'budgetUsd', 'Budget (US dollars)', 'Stop a run\'s turn past this; empty: no budget.')}
      <FormField id="schedule-permissionMode" label="Permission mode" hint="Runs are headless: nobody answers questions." problem={issues.permissionMode}>
        {({ describedBy, invalid }) => (
          <select
            id="schedule-permissionMode"
            value={values.permissionMode}
            onChange={(event) => set('permissionMode', event.currentTarget.value as SchedulePermissionMode)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          >
            {PERMISSION_MODES.map(([mode, label]) => (
              <option key={mode} value={mode}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id="schedule-overlap" label="When the previous run is still going" problem={issues.overlap}>
        {({ describedBy, invalid }) => (
          <select
            id="schedule-overlap"
            value={values.overlap}
            onChange={(event) => set('overlap', event.currentTarget.value as ScheduleOverlap)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          >
            {OVERLAPS.map(([overlap, label]) => (
              <option key={overlap} value={overlap}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <label class="form-check">
        <input type="checkbox" checked={values.runMissed} onChange={(event) => set('runMissed', event.currentTarget.checked)} />
        {' Run once at start-up if a run was missed while the daemon was down'}
      </label>
      <label class="form-check">
        <input type="checkbox" checked={values.enabled} onChange={(event) => set('enabled', event.currentTarget.checked)} />
        {' Enabled'}
      </label>
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {editing ? 'Save schedule' : 'Add schedule'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
