import { describe, expect, it } from 'vitest';
import { durationBetween, formatDuration } from '../../../../../clients/web/src/views/format/format-duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [1_000, '1.0 s'],
    [41_300, '41.3 s'],
    [59_940, '59.9 s'],
    [59_960, '1 min'],
    [125_000, '2 min 5 s'],
    [3_600_000, '1 h'],
    [3_780_000, '1 h 3 min'],
    [86_400_000, '1 d'],
    [187_200_000, '2 d 4 h'],
  ])('%d ms reads "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('shows a dash for a negative or unreadable duration', () => {
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
  });
});

describe('durationBetween', () => {
  it('is the time from start to end, null while running or unreadable', () => {
    expect(durationBetween('2026-11-26T08:00:00.012Z', '2026-11-26T08:00:41.300Z')).toBe(41_288);
    expect(durationBetween('2026-11-26T08:00:00Z', null)).toBeNull();
    expect(durationBetween('yesterday', '2026-11-26T08:00:00Z')).toBeNull();
  });

  it('never goes below zero when clocks disagree', () => {
    expect(durationBetween('2026-11-26T08:00:01Z', '2026-11-26T08:00:00Z')).toBe(0);
  });
});
