import { describe, expect, it } from 'vitest';
import { formatTime } from '../../../../../clients/web/src/views/format/format-time.js';

describe('formatTime', () => {
  it('writes an ISO time as date and minute in the given zone', () => {
    expect(formatTime('2026-11-26T08:00:41.300Z', 'UTC')).toBe('2026-11-26 08:00');
    expect(formatTime('2026-11-26T08:00:41.300Z', 'Europe/Berlin')).toBe('2026-11-26 09:00');
    expect(formatTime('2026-11-26T23:30:00Z', 'Asia/Tokyo')).toBe('2026-11-27 08:30');
  });

  it('uses 00 for midnight, not 24', () => {
    expect(formatTime('2026-11-26T00:05:00Z', 'UTC')).toBe('2026-11-26 00:05');
  });

  it('shows an unreadable time as given', () => {
    expect(formatTime('soon', 'UTC')).toBe('soon');
  });
});
