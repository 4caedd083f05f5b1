import {
  type AddScheduleRequest,
  DEFAULT_SCHEDULE_TIMEOUT_MS,
  type Schedule,
  SchedulePermissionModeSchema,
  ScheduleOverlapSchema,
  type UpdateScheduleRequest,
} from '../../protocol/index.js';
import type { ScheduleConfig } from '../config/config-schema.js';
import { localTimezone } from '../config/describe-timezone-problem.js';
import type { StoredSchedule } from '../store/schedule-store.js';

/** A schedule with every default filled in: what the scheduler runs (a `Schedule` without its next run time). */
export type ScheduleSpec = Omit<Schedule, 'nextRunAt'>;

/** Defaults of the optional fields, shared by config.json and `schedules/add`. */
function withDefaults(input: Omit<AddScheduleRequest, 'name' | 'cron' | 'prompt' | 'cwd'>) {
  return {
    timezone: input.timezone ?? localTimezone(),
    ...(input.agent !== undefined ? { agent: input.agent } : {}),
    ...(input.model !== undefined ? { model: input.model } : {}),
    timeoutMs: input.timeoutMs ?? DEFAULT_SCHEDULE_TIMEOUT_MS,
    ...(input.budgetUsd !== undefined ? { budgetUsd: input.budgetUsd } : {}),
    permissionMode: input.permissionMode ?? 'ask',
    overlap: input.overlap ?? 'skip',
    runMissed: input.runMissed ?? false,
    enabled: input.enabled ?? true,
  };
}

/** A config.json schedule; its name is its id. */
export function specFromConfig(config: ScheduleConfig): ScheduleSpec {
  const { name, cron, prompt, cwd, ...rest } = config;
  return { id: name, name, cron, prompt, cwd, ...withDefaults(rest), source: 'config' };
}

/** A schedule from `schedules/add`. */
export function specFromAdd(id: string, params: AddScheduleRequest): ScheduleSpec {
  const { name, cron, prompt, cwd, ...rest } = params;
  return { id, name, cron, prompt, cwd, ...withDefaults(rest), source: 'protocol' };
}

/** `schedules/update`: the given fields replace the schedule's; `null` clears an optional one. */
export function applyUpdate(spec: ScheduleSpec, patch: UpdateScheduleRequest): ScheduleSpec {
  const next: Record<string, unknown> = { ...spec };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id' || value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as ScheduleSpec;
}

/** What the store keeps of a protocol schedule (everything but id, name and source). */
export function definitionOf(spec: ScheduleSpec): Record<string, unknown> {
  const { id: _id, name: _name, source: _source, ...definition } = spec;
  return definition;
}

/** A stored schedule back as a spec; fields a later version dropped or broke fall back to defaults. */
export function specFromStored(stored: StoredSchedule): ScheduleSpec {
  const d = stored.definition;
  const text = (key: string): string | undefined => (typeof d[key] === 'string' ? (d[key] as string) : undefined);
  const num = (key: string): number | undefined => (typeof d[key] === 'number' ? (d[key] as number) : undefined);
  const permissionMode = SchedulePermissionModeSchema.safeParse(d.permissionMode);
  const overlap = ScheduleOverlapSchema.safeParse(d.overlap);
  const defaults = withDefaults({
    ...(text('timezone') ? { timezone: text('timezone')! } : {}),
    ...(text('agent') ? { agent: text('agent')! } : {}),
    ...(text('model') ? { model: text('model')! } : {}),
    ...(num('timeoutMs') ? { timeoutMs: num('timeoutMs')! } : {}),
    ...(num('budgetUsd') ? { budgetUsd: num('budgetUsd')! } : {}),
    ...(permissionMode.success ? { permissionMode: permissionMode.data } : {}),
    ...(overlap.success ? { overlap: overlap.data } : {}),
    ...(typeof d.runMissed === 'boolean' ? { runMissed: d.runMissed } : {}),
    ...(typeof d.enabled === 'boolean' ? { enabled: d.enabled } : {}),
  });
  return { id: stored.id, name: stored.name, cron: text('cron') ?? '', prompt: text('prompt') ?? '', cwd: text('cwd') ?? '', ...defaults, source: 'protocol' };
}
