import { describe, expect, it } from 'vitest';
import { costChartGeometry, niceAxis, type CostChartGeometry } from '../../../../../clients/web/src/views/cost/cost-chart.js';
import { costSeries, type CostRow } from '../../../../../clients/web/src/views/cost/cost-series.js';

/** Each bar's segments sit on the baseline and on each other, and their heights add up to the day's total on the axis scale. */
function expectStacksMatchTotals(chart: CostChartGeometry): void {
  const plotHeight = chart.plot.bottom - chart.plot.top;
  const top = chart.ticks[chart.ticks.length - 1]!.valueUsd;
  for (const bar of chart.bars) {
    let base = chart.plot.bottom;
    for (const segment of bar.segments) {
      expect(segment.y + segment.height).toBeCloseTo(base, 9);
      base = segment.y;
    }
    const height = bar.segments.reduce((sum, s) => sum + s.height, 0);
    expect(height).toBeCloseTo((bar.totalUsd / top) * plotHeight, 9);
    expect(bar.segments.reduce((sum, s) => sum + s.costUsd, 0)).toBeCloseTo(bar.totalUsd, 12);
    expect(base).toBeGreaterThanOrEqual(chart.plot.top - 1e-9);
  }
}

describe('niceAxis', () => {
  it.each([
    [1, 1, 0.2],
    [0.93, 1, 0.2],
    [4.2, 5, 1],
    [7, 8, 2],
    [0.0123, 0.015, 0.005],
    [120, 150, 50],
  ])('max %d: axis to %d in steps of %d', (max, top, step) => {
    const axis = niceAxis(max);
    expect(axis.top).toBeCloseTo(top, 12);
    expect(axis.step).toBeCloseTo(step, 12);
    expect(axis.top).toBeGreaterThanOrEqual(max);
    expect(axis.top / axis.step).toBeLessThanOrEqual(5 + 1e-9);
  });

  it('gives a range without cost an axis all the same', () => {
    expect(niceAxis(0)).toEqual({ top: 0.01, step: 0.0025 });
  });
});

describe('costChartGeometry', () => {
  const rows: CostRow[] = [
    { day: '2026-11-21', model: 'anthropic/claude', costUsd: 0.42 },
    { day: '2026-11-21', model: 'openai/gpt', costUsd: 0.08 },
    { day: '2026-11-23', model: 'openai/gpt', costUsd: 1.3 },
    { day: '2026-11-27', model: 'anthropic/claude', costUsd: 0.004 },
  ];

  it('draws one bar per day with stacks that add up to the day totals', () => {
    const chart = costChartGeometry(costSeries(rows, '2026-11-21', '2026-11-27'));
    expect(chart.bars.map((b) => b.day)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27']);
    expect(chart.bars.map((b) => b.totalUsd)).toEqual([0.5, 0, 1.3, 0, 0, 0, 0.004]);
    expectStacksMatchTotals(chart);
    // 1.3 at most: five steps of 0.2 fall short, so steps of 0.5 up to 1.5.
    expect(chart.ticks.map((t) => t.valueUsd)).toEqual([0, 0.5, 1, 1.5]);
    const third = (chart.plot.bottom - chart.plot.top) / 3;
    chart.ticks.forEach((tick, i) => expect(tick.y).toBeCloseTo(chart.plot.bottom - i * third, 9));
  });

  it('keeps bars inside the plot, left to right without overlapping', () => {
    const chart = costChartGeometry(costSeries(rows, '2026-11-21', '2026-11-27'));
    for (const [i, bar] of chart.bars.entries()) {
      expect(bar.x).toBeGreaterThanOrEqual(chart.plot.left);
      expect(bar.x + bar.width).toBeLessThanOrEqual(chart.plot.right + 1e-9);
      if (i > 0) expect(bar.x).toBeGreaterThan(chart.bars[i - 1]!.x + chart.bars[i - 1]!.width);
    }
  });

  it('draws days without cost as no segments, and a range without any cost on a one-cent axis', () => {
    const chart = costChartGeometry(costSeries([], '2026-11-21', '2026-11-27'));
    expect(chart.bars).toHaveLength(7);
    expect(chart.bars.every((b) => b.segments.length === 0 && b.totalUsd === 0)).toBe(true);
    expect(chart.ticks[0]!.y).toBe(chart.plot.bottom);
    expect(chart.ticks[chart.ticks.length - 1]!.valueUsd).toBeCloseTo(0.01, 12);
  });

  it('with one model, each day is one segment as tall as its bar', () => {
    const one = rows.filter((r) => r.model === 'openai/gpt');
    const chart = costChartGeometry(costSeries(one, '2026-11-21', '2026-11-27'));
    expect(chart.bars.map((b) => b.segments.length)).toEqual([1, 0, 1, 0, 0, 0, 0]);
    expect(chart.bars[2]!.segments[0]).toMatchObject({ series: 0, costUsd: 1.3 });
    expectStacksMatchTotals(chart);
  });

  it('with many models over 90 days, stacks still add up and at most ten days are labelled, the last one always', () => {
    const many: CostRow[] = [];
    for (let d = 0; d < 90; d++) {
      const day = new Date(Date.parse('2026-08-30T00:00:00Z') + d * 86_400_000).toISOString().slice(0, 10);
      for (let m = 0; m < 11; m++) if ((d + m) % 4 !== 0) many.push({ day, model: `vendor/model-${m}`, costUsd: ((d * 7 + m * 13) % 17) / 100 });
    }
    const data = costSeries(many, '2026-08-30', '2026-11-27');
    const chart = costChartGeometry(data);
    expect(chart.bars).toHaveLength(90);
    expectStacksMatchTotals(chart);
    const labelled = chart.bars.filter((b) => b.labelled);
    expect(labelled.length).toBeLessThanOrEqual(10);
    expect(chart.bars[89]!.labelled).toBe(true);
    expect(Math.max(...chart.bars.flatMap((b) => b.segments.map((s) => s.series)))).toBe(7);
  });
});
