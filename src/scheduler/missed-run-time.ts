import type { Cron } from 'croner';
import { loadCron } from '../config/load-croner.js';
import type { ScheduleSpec } from './schedule-spec.js';

/**
 * The first time the schedule was due after `since` if that time has already passed at
 * `now` (the daemon was down then), else undefined.
 */
export function missedRunTime(spec: Pick<ScheduleSpec, 'cron' | 'timezone'>, since: Date, now: Date): Date | undefined {
  const due = new (loadCron())(spec.cron, { timezone: spec.timezone, paused: true }).nextRun(since);
  return due && due.getTime() <= now.getTime() ? due : undefined;
}
