import { useState } from 'preact/hooks';
import type { Schedule } from '../../../../../protocol/index.js';
import { errorText, issuesByField } from '../error-text.js';
import { sessionHref } from '../../shell/route.js';
import type { ViewClient } from '../view-client.js';
import { ScheduleForm } from './schedule-form.js';
import {
  addScheduleRequest,
  emptyScheduleForm,
  scheduleForm,
  SCHEDULE_FIELDS,
  updateScheduleRequest,
  type FormIssues,
  type ScheduleFormValues,
} from './schedule-form-values.js';
import { ScheduleHistory } from './schedule-history.js';
import { ScheduleTable } from './schedule-table.js';
import { useSchedules } from './use-schedules.js';
import '../views.css';
import './schedules.css';

/** What the form is doing: nothing, adding, or editing one schedule. */
type Editing = { kind: 'none' } | { kind: 'add' } | { kind: 'edit'; schedule: Schedule };

/** The outcome of the last action, announced politely; `sessionId` adds a link to a started run. */
interface Status {
  text: string;
  sessionId?: string;
  bad?: boolean;
}

/** Schedules: the list, add and edit, enable and disable, remove, run now, and each one's run history. */
export function SchedulesView({ client }: { client: ViewClient }) {
  const { schedules, lastRuns, error, runEvents, reload, replace } = useSchedules(client);
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const [issues, setIssues] = useState<FormIssues>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [confirmingRemove, setConfirmingRemove] = useState<string | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState<Status | null>(null);

  const openForm = (next: Editing): void => {
    setIssues({});
    setGeneral([]);
    setEditing(next);
  };

  /** Runs one schedule's action with its row marked busy (clicks ignored); a failure becomes the status line. */
  const act = async (schedule: Schedule, what: string, action: () => Promise<Status>): Promise<void> => {
    setBusy((ids) => new Set(ids).add(schedule.id));
    try {
      setStatus(await action());
    } catch (failure) {
      setStatus({ text: `Could not ${what} ${schedule.name}: ${errorText(failure)}`, bad: true });
    } finally {
      setBusy((ids) => {
        const rest = new Set(ids);
        rest.delete(schedule.id);
        return rest;
      });
    }
  };

  const submit = async (values: ScheduleFormValues): Promise<void> => {
    const parsed = editing.kind === 'edit' ? updateScheduleRequest(editing.schedule, values) : addScheduleRequest(values);
    if (!parsed.ok) {
      setIssues(parsed.issues);
      setGeneral(['Some fields need a fix; see beside each.']);
      return;
    }
    setSaving(true);
    try {
      const { schedule } =
        'id' in parsed.value ? await client.request('schedules/update', parsed.value) : await client.request('schedules/add', parsed.value);
      setEditing({ kind: 'none' });
      setStatus({ text: editing.kind === 'edit' ? `Saved ${schedule.name}.` : `Added ${schedule.name}.` });
      await reload();
    } catch (failure) {
      const byField = issuesByField(failure, SCHEDULE_FIELDS);
      const fieldIssues: FormIssues = {};
      for (const [field, texts] of byField) if (field) fieldIssues[field as keyof FormIssues] = texts.join('; ');
      setIssues(fieldIssues);
      // Issues that name a field show beside it; the rest (or the whole message, when the
      // answer has no issues) above the form.
      const unplaced = byField.get('') ?? [];
      const placed = Object.keys(fieldIssues).length > 0 ? ['The daemon refused the schedule: see the fields marked below.'] : [];
      setGeneral(byField.size === 0 ? [errorText(failure)] : [...placed, ...unplaced]);
    } finally {
      setSaving(false);
    }
  };

  const historySchedule = schedules?.find((s) => s.id === historyOf);
  return (
    <section class="schedules-view" aria-labelledby="schedules-heading">
      <header class="view-header">
        <h1 id="schedules-heading">Schedules</h1>
        <button type="button" onClick={() => openForm({ kind: 'add' })} disabled={editing.kind === 'add'}>
          New schedule
        </button>
      </header>
      <div class="schedules-status" aria-live="polite">
        {status ? (
          <p class={status.bad ? 'view-error' : undefined}>
            {status.text}
            {status.sessionId ? (
              <>
                {' '}
                <a href={sessionHref(status.sessionId)}>Open its session</a>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      {error ? (
        <p role="alert" class="view-error">
          {`Could not load the schedules: ${error}`}
        </p>
      ) : null}
      {editing.kind !== 'none' ? (
        <ScheduleForm
          key={editing.kind === 'edit' ? editing.schedule.id : 'add'}
          {...(editing.kind === 'edit' ? { editing: editing.schedule.name } : {})}
          initial={editing.kind === 'edit' ? scheduleForm(editing.schedule) : emptyScheduleForm()}
          issues={issues}
          general={general}
          busy={saving}
          onSubmit={(values) => void submit(values)}
          onCancel={() => openForm({ kind: 'none' })}
        />
      ) : null}
      {schedules ? (
        <ScheduleTable
          schedules={schedules}
          lastRuns={lastRuns}
          confirmingRemove={confirmingRemove}
          historyOf={historyOf}
          busy={busy}
          onRun={(s) => {
            setHistoryOf(s.id);
            void act(s, 'run', async () => {
              const run = await client.request('schedules/run', { id: s.id });
              if (run.status === 'started') return { text: `${s.name} started.`, ...(run.sessionId ? { sessionId: run.sessionId } : {}) };
              if (run.status === 'failed') return { text: `${s.name} could not start: ${run.error ?? 'see its history'}.`, bad: true };
              return { text: run.status === 'queued' ? `${s.name} is queued behind its running run.` : `${s.name} was skipped: a run is still going.` };
            });
          }}
          onToggle={(s, enabled) => {
            // The box shows the change at once; the daemon's answer (next run time too) replaces it, a refusal reloads.
            replace({ ...s, enabled });
            void act(s, enabled ? 'enable' : 'disable', async () => {
              try {
                replace((await client.request('schedules/update', { id: s.id, enabled })).schedule);
              } catch (failure) {
                await reload();
                throw failure;
              }
              return { text: `${s.name} is ${enabled ? 'enabled' : 'disabled'}.` };
            });
          }}
          onEdit={(s) => openForm({ kind: 'edit', schedule: s })}
          onAskRemove={(s) => setConfirmingRemove(s.id)}
          onCancelRemove={() => setConfirmingRemove(null)}
          onRemove={(s) =>
            void act(s, 'remove', async () => {
              await client.request('schedules/remove', { id: s.id });
              setConfirmingRemove(null);
              if (historyOf === s.id) setHistoryOf(null);
              await reload();
              return { text: `Removed ${s.name}.` };
            })
          }
          onHistory={(s) => setHistoryOf((open) => (open === s.id ? null : s.id))}
        />
      ) : error ? null : (
        <p class="view-loading">Loading schedules…</p>
      )}
      {historySchedule ? <ScheduleHistory client={client} schedule={historySchedule} version={runEvents.get(historySchedule.id) ?? 0} /> : null}
    </section>
  );
}
