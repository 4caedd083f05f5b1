import { describe, expect, it } from 'vitest';
import { describeCronProblem } from '../../src/config/describe-cron-problem.js';
import { describeTimezoneProblem } from '../../src/config/describe-timezone-problem.js';

describe('describeCronProblem', () => {
  it('accepts 5 and 6 fields and nicknames', () => {
    for (const ok of ['0 9 * * 1-5', '*/5 * * * * *', '@daily', '0 0 L * *']) expect(describeCronProblem(ok)).toBeUndefined();
  });

  it.each([
    ['x * * * *', 'minute'],
    ['0 0 24 * * *', 'hour'],
    ['0 9 0 * *', 'day-of-month'],
    ['0 9 * JANUARY *', 'month'],
    ['0 9 * * 9', 'day-of-week'],
    ['70 0 9 * * *', 'second'],
  ])('names the bad field of %s: %s', (cron, field) => {
    expect(describeCronProblem(cron)).toMatch(new RegExp(`^the ${field} field "`));
  });

  it('says how many fields to write, and which nicknames exist', () => {
    expect(describeCronProblem('1 2 3')).toContain('has 3 field(s); write 5');
    expect(describeCronProblem('@sometimes')).toContain('use @yearly, @monthly, @weekly, @daily or @hourly');
  });

  it('time zones: IANA names pass, others say how to fix', () => {
    expect(describeTimezoneProblem('America/New_York')).toBeUndefined();
    expect(describeTimezoneProblem('CEST+2')).toContain('use an IANA name like "Europe/Berlin"');
  });
});
