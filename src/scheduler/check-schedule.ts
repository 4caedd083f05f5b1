import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describeCronProblem } from '../config/describe-cron-problem.js';
import { describeTimezoneProblem } from '../config/describe-timezone-problem.js';
import { ModelReferenceSchema } from '../config/provider-config-schema.js';
import type { ScheduleSpec } from './schedule-spec.js';

/**
 * What the protocol schema cannot check: the cron against croner, the time zone against
 * Intl, the cwd on disk and the model's spelling (whether its provider is configured, and
 * the agent, depend on the cwd's project: a run that cannot use them is a failed run).
 * Returns one `field: problem and fix` per problem.
 */
export function checkSchedule(spec: Pick<ScheduleSpec, 'cron' | 'timezone' | 'cwd' | 'model'>): string[] {
  const issues: string[] = [];
  const cron = describeCronProblem(spec.cron);
  if (cron) issues.push(`cron: ${cron}`);
  const timezone = describeTimezoneProblem(spec.timezone);
  if (timezone) issues.push(`timezone: ${timezone}`);
  const cwd = describeCwdProblem(spec.cwd);
  if (cwd) issues.push(`cwd: ${cwd}`);
  const model = spec.model === undefined ? undefined : ModelReferenceSchema.safeParse(spec.model);
  if (model && !model.success) issues.push(`model: ${model.error.issues[0]!.message}, got ${JSON.stringify(spec.model)}`);
  return issues;
}

/** Why a run cannot use `cwd`, or undefined when it is an existing absolute directory. */
export function describeCwdProblem(cwd: string): string | undefined {
  if (!isAbsolute(cwd)) return `must be an absolute path, got ${JSON.stringify(cwd)}; write the full path, like "/home/you/project"`;
  try {
    if (!statSync(cwd).isDirectory()) return `${cwd} is not a directory`;
  } catch {
    return `${cwd} does not exist; create it or point the schedule at an existing directory`;
  }
  return undefined;
}
