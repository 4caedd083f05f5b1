import { describe, expect, it } from 'vitest';
import { daysBetween, rangeEnding } from '../../../../../clients/web/src/views/cost/cost-days.js';

describe('cost ranges', () => {
  it('the last N UTC days end today and include it', () => {
    expect(rangeEnding(new Date('2026-11-27T03:00:00Z'), 7)).toEqual({ since: '2026-11-21', until: '2026-11-27' });
    expect(rangeEnding(new Date('2026-03-01T23:59:59Z'), 30)).toEqual({ since: '2026-01-31', until: '2026-03-01' });
    expect(rangeEnding(new Date('2026-11-27T00:00:00Z'), 1)).toEqual({ since: '2026-11-27', until: '2026-11-27' });
  });

  it('lists every day between two days, both included, across months and a leap day', () => {
    expect(daysBetween('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(daysBetween('2026-11-27', '2026-11-27')).toEqual(['2026-11-27']);
    expect(daysBetween('2026-01-01', '2026-12-31')).toHaveLength(365);
  });

  it('is empty when the range is backwards or unreadable', () => {
    expect(daysBetween('2026-11-27', '2026-11-26')).toEqual([]);
    expect(daysBetween('last week', '2026-11-26')).toEqual([]);
  });
});
