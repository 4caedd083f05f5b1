import type { Cron } from 'croner';
import { loadCron } from './load-croner.js';

const FIVE_FIELDS = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week'];
const SIX_FIELDS = ['second', ...FIVE_FIELDS];

/**
 * What is wrong with a cron expression, naming the field at fault, or undefined when
 * croner accepts it. Croner's own messages number the field or name it by its limit
 * ("Invalid value for day: 31"), so each field is tried alone in an all-`*` pattern to find
 * the one it refuses.
 */
export function describeCronProblem(expression: string): string | undefined {
  const problem = cronError(expression);
  if (problem === undefined) return undefined;
  const parts = expression.trim().split(/\s+/);
  if (expression.trim().startsWith('@')) {
    return `"${expression}" is not a cron nickname croner knows; use @yearly, @monthly, @weekly, @daily or @hourly, or write the fields`;
  }
  if (parts.length !== 5 && parts.length !== 6) {
    return `"${expression}" has ${parts.length} field(s); write 5 (minute hour day-of-month month day-of-week) or 6 (second first), like "0 9 * * 1-5"`;
  }
  const names = parts.length === 6 ? SIX_FIELDS : FIVE_FIELDS;
  for (let i = 0; i < parts.length; i++) {
    const alone = parts.map((part, j) => (j === i ? part : '*')).join(' ');
    if (cronError(alone) !== undefined) {
      return `the ${names[i]} field "${parts[i]}" of "${expression}" is not valid (${problem.replace(/^CronPattern: /, '')}); ${RANGES[names[i]!]}`;
    }
  }
  return `"${expression}" is not a valid cron expression (${problem.replace(/^CronPattern: /, '')})`;
}

const RANGES: Record<string, string> = {
  second: 'seconds are 0-59',
  minute: 'minutes are 0-59',
  hour: 'hours are 0-23',
  'day-of-month': 'days of the month are 1-31 (or L for the last)',
  month: 'months are 1-12 or JAN-DEC',
  'day-of-week': 'days of the week are 0-7 (0 and 7 are Sunday) or SUN-SAT',
};

function cronError(expression: string): string | undefined {
  try {
    // Without a callback croner only parses the pattern; nothing is scheduled.
    new (loadCron())(expression, { paused: true }).stop();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
