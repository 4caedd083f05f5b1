import { describe, expect, it } from 'vitest';
import { CostTracker, DaemonCostTotals } from '../../src/loop/track-cost.js';

const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, cacheReadTokens: 10, cacheWriteTokens: 5, reasoningTokens: 1 });

describe('CostTracker', () => {
  it('adds up a session and feeds the shared daemon totals', () => {
    const totals = new DaemonCostTotals();
    const a = new CostTracker(totals);
    const b = new CostTracker(totals, 0.5);
    a.add(0.25, usage(100, 20));
    a.add(0.125, usage(50, 10));
    b.add(1, usage(1_000, 200));

    expect(a.sessionUsd).toBe(0.375);
    expect(b.sessionUsd).toBe(1.5);
    expect(a.sessionUsage).toEqual({ inputTokens: 150, outputTokens: 30, cacheReadTokens: 20, cacheWriteTokens: 10, reasoningTokens: 2 });
    // The daemon counts what was spent while it ran, not the loaded session's earlier cost.
    expect(totals.usd).toBe(1.375);
    expect(a.daemonUsd).toBe(1.375);
    expect(totals.responses).toBe(3);
    expect(totals.usage.inputTokens).toBe(1_150);
  });

  it('refuses costs that would poison the totals', () => {
    const tracker = new CostTracker(new DaemonCostTotals());
    expect(() => tracker.add(Number.NaN, usage(1, 1))).toThrow('usd must be a finite number of USD >= 0, got NaN');
    expect(() => tracker.add(-1, usage(1, 1))).toThrow('got -1');
    expect(() => new CostTracker(new DaemonCostTotals(), -2)).toThrow('initialSessionUsd');
    expect(tracker.sessionUsd).toBe(0);
  });
});
