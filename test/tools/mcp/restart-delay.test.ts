import { describe, expect, it } from 'vitest';
import { restartDelay } from '../../../src/tools/mcp/restart-delay.js';

describe('restartDelay', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => restartDelay(attempt))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(restartDelay(3, { initialMs: 100, maxMs: 250 })).toBe(250);
  });
});
