import { describe, expect, it } from 'vitest';
import { missedRunTime } from '../../src/scheduler/missed-run-time.js';

describe('missedRunTime', () => {
  const daily9 = { cron: '0 9 * * *', timezone: 'Europe/Berlin' };

  it('is the first due time after the last run when that time has passed, in the schedule\'s time zone', () => {
    const due = missedRunTime(daily9, new Date('2026-03-01T10:00:00Z'), new Date('2026-03-03T00:00:00Z'));
    expect(due?.toISOString()).toBe('2026-03-02T08:00:00.000Z');
  });

  it('is undefined when the next time is still ahead', () => {
    expect(missedRunTime(daily9, new Date('2026-03-01T10:00:00Z'), new Date('2026-03-02T07:59:59Z'))).toBeUndefined();
  });
});
