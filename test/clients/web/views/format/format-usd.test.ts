import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../../../../clients/web/src/views/format/format-usd.js';

describe('formatUsd', () => {
  it('shows cents from a cent up and thousands separated', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.01)).toBe('$0.01');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
  });

  it('keeps four decimals below a cent, where one request usually costs', () => {
    expect(formatUsd(0.0123)).toBe('$0.01');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0.00015)).toBe('$0.0002');
  });

  it('says "< $0.0001" for what four decimals round to zero, and a dash for what is not a number', () => {
    expect(formatUsd(0.00001)).toBe('< $0.0001');
    expect(formatUsd(Number.NaN)).toBe('—');
    expect(formatUsd(Number.POSITIVE_INFINITY)).toBe('—');
  });
});
