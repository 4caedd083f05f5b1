import type { AddScheduleRequest, Schedule, SchedulePermissionMode, ScheduleOverlap, UpdateScheduleRequest } from '../../../../../protocol/index.js';

/** The schedule form's inputs as typed (strings and ticks); timeout in seconds, budget in dollars. */
export interface ScheduleFormValues {
  name: string;
  cron: string;
  timezone: string;
  prompt: string;
  cwd: string;
  agent: string;
  model: string;
  timeoutSeconds: string;
  budgetUsd: string;
  permissionMode: SchedulePermissionMode;
  overlap: ScheduleOverlap;
  runMissed: boolean;
  enabled: boolean;
}

/** The form's fields by the protocol's names, which the daemon's `field: problem` issues use. */
export const SCHEDULE_FIELDS = ['name', 'cron', 'timezone', 'prompt', 'cwd', 'agent', 'model', 'timeoutMs', 'budgetUsd', 'permissionMode', 'overlap', 'runMissed', 'enabled'] as const;
export type ScheduleField = (typeof SCHEDULE_FIELDS)[number];

/** What the form found wrong before sending, by protocol field. */
export type FormIssues = Partial<Record<ScheduleField, string>>;

/** A new schedule's form: the protocol's defaults, the time zone left to the daemon. */
export function emptyScheduleForm(): ScheduleFormValues {
  return { name: '', cron: '', timezone: '', prompt: '', cwd: '', agent: '', model: '', timeoutSeconds: '', budgetUsd: '', permissionMode: 'ask', overlap: 'skip', runMissed: false, enabled: true };
}

/** The form filled from a stored schedule, for editing. */
export function scheduleForm(schedule: Schedule): ScheduleFormValues {
  return {
    name: schedule.name,
    cron: schedule.cron,
    timezone: schedule.timezone,
    prompt: schedule.prompt,
    cwd: schedule.cwd,
    agent: schedule.agent ?? '',
    model: schedule.model ?? '',
    timeoutSeconds: String(schedule.timeoutMs / 1_000),
    budgetUsd: schedule.budgetUsd === undefined ? '' : String(schedule.budgetUsd),
    permissionMode: schedule.permissionMode,
    overlap: schedule.overlap,
    runMissed: schedule.runMissed,
    enabled: schedule.enabled,
  };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FormIssues };

/** The fields every schedule needs, with what to write when one is empty. */
const REQUIRED: Array<[ScheduleField & keyof ScheduleFormValues, string]> = [
  ['name', 'give the schedule a name; it is also the title of its runs\' sessions'],
  ['cron', 'write when it runs, like "0 9 * * 1-5" (9:00 on weekdays) or "@daily"'],
  ['prompt', 'write the prompt each run sends'],
  ['cwd', 'give the absolute path of the folder the runs work in, like "/home/you/project"'],
];

/** Checks what the daemon cannot see (empty inputs, numbers typed as text) and converts units. */
function parseCommon(values: ScheduleFormValues): Parsed<{ timeoutMs: number | undefined; budgetUsd: number | undefined }> {
  const issues: FormIssues = {};
  for (const [field, fix] of REQUIRED) if (String(values[field]).trim() === '') issues[field] = `is empty: ${fix}`;
  let timeoutMs: number | undefined;
  if (values.timeoutSeconds.trim() !== '') {
    const seconds = Number(values.timeoutSeconds);
    timeoutMs = Math.round(seconds * 1_000);
    if (!Number.isFinite(seconds) || timeoutMs <= 0) issues.timeoutMs = `must be a positive number of seconds, like 180; got "${values.timeoutSeconds}"`;
  }
  let budgetUsd: number | undefined;
  if (values.budgetUsd.trim() !== '') {
    budgetUsd = Number(values.budgetUsd);
    if (!Number.isFinite(budgetUsd) || budgetUsd <= 0) issues.budgetUsd = `must be a positive amount of US dollars, like 0.50; got "${values.budgetUsd}"`;
  }
  return Object.keys(issues).length > 0 ? { ok: false, issues } : { ok: true, value: { timeoutMs, budgetUsd } };
}

/** `schedules/add` params from the form; empty optional inputs are left to the daemon's defaults. */
export function addScheduleRequest(values: ScheduleFormValues): Parsed<AddScheduleRequest> {
  const common = parseCommon(values);
  if (!common.ok) return common;
  const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());
  const request: AddScheduleRequest = {
    name: values.name.trim(),
    cron: values.cron.trim(),
    prompt: values.prompt,
    cwd: values.cwd.trim(),
    permissionMode: values.permissionMode,
    overlap: values.overlap,
    runMissed: values.runMissed,
    enabled: values.enabled,
  };
  const timezone = optional(values.timezone);
  const agent = optional(values.agent);
  const model = optional(values.model);
  if (timezone !== undefined) request.timezone = timezone;
  if (agent !== undefined) request.agent = agent;
  if (model !== undefined) request.model = model;
  if (common.value.timeoutMs !== undefined) request.timeoutMs = common.value.timeoutMs;
  if (common.value.budgetUsd !== undefined) request.budgetUsd = common.value.budgetUsd;
  return { ok: true, value: request };
}

/**
 * `schedules/update` params: only what the form changed. An emptied agent, model or budget
 * is sent as null (cleared); an update cannot set the time zone or timeout back to the
 * daemon's default, so for those the form asks for a value.
 */
export function updateScheduleRequest(schedule: Schedule, values: ScheduleFormValues): Parsed<UpdateScheduleRequest> {
  const common = parseCommon(values);
  const issues: FormIssues = common.ok ? {} : { ...common.issues };
  if (values.timezone.trim() === '') issues.timezone = `is empty: write an IANA time zone, like "Europe/Berlin" (it was "${schedule.timezone}")`;
  if (values.timeoutSeconds.trim() === '') issues.timeoutMs = `is empty: write the run's time limit in seconds, like ${schedule.timeoutMs / 1_000}`;
  if (!common.ok || Object.keys(issues).length > 0) return { ok: false, issues };
  const request: UpdateScheduleRequest = { id: schedule.id };
  const text = (value: string): string => value.trim();
  if (text(values.name) !== schedule.name) request.name = text(values.name);
  if (text(values.cron) !== schedule.cron) request.cron = text(values.cron);
  if (text(values.timezone) !== schedule.timezone) request.timezone = text(values.timezone);
  if (values.prompt !== schedule.prompt) request.prompt = values.prompt;
  if (text(values.cwd) !== schedule.cwd) request.cwd = text(values.cwd);
  if (text(values.agent) !== (schedule.agent ?? '')) request.agent = text(values.agent) || null;
  if (text(values.model) !== (schedule.model ?? '')) request.model = text(values.model) || null;
  if (common.value.timeoutMs !== schedule.timeoutMs) request.timeoutMs = common.value.timeoutMs!;
  if (common.value.budgetUsd !== schedule.budgetUsd) request.budgetUsd = common.value.budgetUsd ?? null;
  if (values.permissionMode !== schedule.permissionMode) request.permissionMode = values.permissionMode;
  if (values.overlap !== schedule.overlap) request.overlap = values.overlap;
  if (values.runMissed !== schedule.runMissed) request.runMissed = values.runMissed;
  if (values.enabled !== schedule.enabled) request.enabled = values.enabled;
  return { ok: true, value: request };
}
