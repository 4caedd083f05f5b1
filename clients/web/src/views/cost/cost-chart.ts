import type { CostSeries } from './cost-series.js';

/** The SVG's coordinate box: the chart scales to its container through viewBox. */
export const CHART_WIDTH = 720;
export const CHART_HEIGHT = 280;
const MARGIN = { top: 12, right: 12, bottom: 36, left: 64 };
/** Share of a day's slot its bar fills; the rest is the gap between bars. */
const BAR_SHARE = 0.72;
/** At most this many day labels under the axis, so they never overlap. */
const MAX_DAY_LABELS = 10;

export interface ChartSegment {
  series: number;
  costUsd: number;
  y: number;
  height: number;
}

export interface ChartBar {
  day: string;
  x: number;
  width: number;
  totalUsd: number;
  /** Bottom first; a series with no cost that day has no segment. */
  segments: ChartSegment[];
  /** Whether this day's label is drawn under the axis. */
  labelled: boolean;
}

export interface ChartTick {
  valueUsd: number;
  y: number;
}

export interface CostChartGeometry {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  bars: ChartBar[];
  ticks: ChartTick[];
}

/**
 * The top of the value axis and its step: the smallest 1, 2 or 5 × 10ⁿ step with which at
 * most five steps reach `max`. A range without cost still gets an axis (up to one cent).
 */
export function niceAxis(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 0.01, step: 0.0025 };
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!;
  return { top: Math.ceil(max / step - 1e-9) * step, step };
}

/** Bars, stacked segments and axis ticks of a stacked bar chart of cost per day, in SVG user units. */
export function costChartGeometry(data: CostSeries): CostChartGeometry {
  const plot = { left: MARGIN.left, top: MARGIN.top, right: CHART_WIDTH - MARGIN.right, bottom: CHART_HEIGHT - MARGIN.bottom };
  const plotHeight = plot.bottom - plot.top;
  const { top, step } = niceAxis(Math.max(0, ...data.dayTotals));
  const scale = (usd: number): number => (usd / top) * plotHeight;
  const slot = data.days.length > 0 ? (plot.right - plot.left) / data.days.length : 0;
  const labelEvery = Math.max(1, Math.ceil(data.days.length / MAX_DAY_LABELS));
  const bars = data.days.map((day, d): ChartBar => {
    let base = plot.bottom;
    const segments: ChartSegment[] = [];
    data.values[d]!.forEach((costUsd, series) => {
      if (!(costUsd > 0)) return;
      const height = scale(costUsd);
      base -= height;
      segments.push({ series, costUsd, y: base, height });
    });
    // The last day is always labelled, so the range's end is readable.
    const labelled = (data.days.length - 1 - d) % labelEvery === 0;
    return { day, x: plot.left + slot * d + (slot * (1 - BAR_SHARE)) / 2, width: slot * BAR_SHARE, totalUsd: data.dayTotals[d]!, segments, labelled };
  });
  const ticks: ChartTick[] = [];
  for (let i = 0; i * step <= top + step / 1e6; i++) ticks.push({ valueUsd: i * step, y: plot.bottom - scale(i * step) });
  return { width: CHART_WIDTH, height: CHART_HEIGHT, plot, bars, ticks };
}
