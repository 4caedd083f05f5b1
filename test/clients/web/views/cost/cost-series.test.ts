import { describe, expect, it } from 'vitest';
import { costSeries, MAX_SERIES, OTHER_MODELS, type CostRow } from '../../../../../clients/web/src/views/cost/cost-series.js';

describe('costSeries', () => {
  it('fills every day of the range, a day without cost as zeros', () => {
    const data = costSeries([{ day: '2026-11-25', model: 'local/a', costUsd: 0.5 }], '2026-11-24', '2026-11-26');
    expect(data.days).toEqual(['2026-11-24', '2026-11-25', '2026-11-26']);
    expect(data.series).toEqual(['local/a']);
    expect(data.values).toEqual([[0], [0.5], [0]]);
    expect(data.dayTotals).toEqual([0, 0.5, 0]);
    expect(data.total).toBe(0.5);
  });

  it('orders models by their total, costliest at the bottom of the stack, equal totals by name', () => {
    const rows: CostRow[] = [
      { day: '2026-11-24', model: 'b/cheap', costUsd: 0.1 },
      { day: '2026-11-24', model: 'a/dear', costUsd: 2 },
      { day: '2026-11-25', model: 'c/even', costUsd: 0.1 },
    ];
    expect(costSeries(rows, '2026-11-24', '2026-11-25').series).toEqual(['a/dear', 'b/cheap', 'c/even']);
  });

  it('folds the models past the first seven into "Other models", keeping every total', () => {
    const rows: CostRow[] = Array.from({ length: 12 }, (_, i) => ({ day: `2026-11-${String(20 + (i % 3)).padStart(2, '0')}`, model: `p/m${String(i).padStart(2, '0')}`, costUsd: 12 - i }));
    const data = costSeries(rows, '2026-11-20', '2026-11-22');
    expect(data.series).toHaveLength(MAX_SERIES);
    expect(data.series.slice(0, 7)).toEqual(['p/m00', 'p/m01', 'p/m02', 'p/m03', 'p/m04', 'p/m05', 'p/m06']);
    expect(data.series[7]).toBe(OTHER_MODELS);
    expect(data.seriesTotals[7]).toBe(5 + 4 + 3 + 2 + 1);
    expect(data.total).toBe(78);
    expect(data.dayTotals.reduce((a, b) => a + b, 0)).toBe(78);
  });

  it('keeps exactly MAX_SERIES models unfolded', () => {
    const rows: CostRow[] = Array.from({ length: MAX_SERIES }, (_, i) => ({ day: '2026-11-20', model: `p/m${i}`, costUsd: i + 1 }));
    expect(costSeries(rows, '2026-11-20', '2026-11-20').series).not.toContain(OTHER_MODELS);
  });

  it('sums rows of one model and day, and leaves out days outside the range', () => {
    const rows: CostRow[] = [
      { day: '2026-11-20', model: 'p/m', costUsd: 1 },
      { day: '2026-11-20', model: 'p/m', costUsd: 2 },
      { day: '2026-11-19', model: 'p/other', costUsd: 100 },
    ];
    const data = costSeries(rows, '2026-11-20', '2026-11-20');
    expect(data.series).toEqual(['p/m']);
    expect(data.values).toEqual([[3]]);
  });
});
