import { resolve } from 'node:path';
import type { AddScheduleRequest, UpdateScheduleRequest } from '../../../protocol/index.js';

/** The flags of `agentd schedules add` and `update`, as parseArgs options. */
export const SCHEDULE_FLAGS = {
  name: { type: 'string' },
  cron: { type: 'string' },
  timezone: { type: 'string' },
  prompt: { type: 'string' },
  cwd: { type: 'string' },
  agent: { type: 'string' },
  model: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'budget-usd': { type: 'string' },
  'permission-mode': { type: 'string' },
  overlap: { type: 'string' },
  'run-missed': { type: 'boolean' },
  'no-run-missed': { type: 'boolean' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

type FlagValues = { [K in keyof typeof SCHEDULE_FLAGS]?: (typeof SCHEDULE_FLAGS)[K]['type'] extends 'string' ? string : boolean };

/**
 * The protocol fields the flags set. Values go to the daemon as typed (it checks cron,
 * time zone, modes and cwd, so the errors are the protocol's); only a relative `--cwd` is
 * resolved against the current directory first, as every path flag of agentd is.
 */
export function scheduleFields(values: FlagValues): Partial<AddScheduleRequest> & Pick<UpdateScheduleRequest, never> {
  const fields: Record<string, unknown> = {};
  for (const key of ['name', 'cron', 'timezone', 'prompt', 'agent', 'model', 'overlap'] as const) {
    if (values[key] !== undefined) fields[key] = values[key];
  }
  if (values.cwd !== undefined) fields.cwd = resolve(values.cwd);
  if (values['permission-mode'] !== undefined) fields.permissionMode = values['permission-mode'];
  if (values['timeout-ms'] !== undefined) fields.timeoutMs = number('--timeout-ms', values['timeout-ms']);
  if (values['budget-usd'] !== undefined) fields.budgetUsd = number('--budget-usd', values['budget-usd']);
  if (values['run-missed'] && values['no-run-missed']) throw new Error('agentd schedules: give --run-missed or --no-run-missed, not both');
  if (values['run-missed']) fields.runMissed = true;
  if (values['no-run-missed']) fields.runMissed = false;
  if (values.enable && values.disable) throw new Error('agentd schedules: give --enable or --disable, not both');
  if (values.enable) fields.enabled = true;
  if (values.disable) fields.enabled = false;
  return fields as Partial<AddScheduleRequest>;
}

function number(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`agentd schedules: ${flag} takes a number, got "${text}"`);
  return value;
}
