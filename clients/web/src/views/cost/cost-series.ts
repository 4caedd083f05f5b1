import { daysBetween } from './cost-days.js';

/** One row of `daemon/costs`'s `days`: what one model cost on one UTC day. */
export interface CostRow {
  day: string;
  model: string;
  costUsd: number;
}

/** The chart has this many colours: the costliest models get one each, the rest share the last as "Other models". */
export const MAX_SERIES = 8;
export const OTHER_MODELS = 'Other models';

/** Cost per day and series, every day of the range present (a day without cost is a row of zeros). */
export interface CostSeries {
  days: string[];
  /** Series names in stacking order (bottom first): models by total cost, then "Other models" if any were folded. */
  series: string[];
  /** `values[d][s]`: cost of series s on days[d]. */
  values: number[][];
  /** Sum of each day's row. */
  dayTotals: number[];
  /** Sum of each series over the range. */
  seriesTotals: number[];
  total: number;
}

/**
 * Folds `daemon/costs` rows into a day × series grid over since..until. Models are ordered
 * by their total (then name, so equal totals keep a stable order); past MAX_SERIES - 1 of
 * them the rest are summed as "Other models", so no two series share a colour. Rows
 * outside the range are left out (the daemon answers only inside it).
 */
export function costSeries(rows: readonly CostRow[], since: string, until: string): CostSeries {
  const days = daysBetween(since, until);
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const inRange = rows.filter((row) => dayIndex.has(row.day));
  const byModel = new Map<string, number>();
  for (const row of inRange) byModel.set(row.model, (byModel.get(row.model) ?? 0) + row.costUsd);
  const models = [...byModel].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([model]) => model);
  const fold = models.length > MAX_SERIES;
  const shown = fold ? models.slice(0, MAX_SERIES - 1) : models;
  const series = fold ? [...shown, OTHER_MODELS] : shown;
  const seriesOf = new Map(shown.map((model, i) => [model, i]));
  const values = days.map(() => series.map(() => 0));
  for (const row of inRange) {
    const s = seriesOf.get(row.model) ?? series.length - 1;
    values[dayIndex.get(row.day)!]![s]! += row.costUsd;
  }
  const dayTotals = values.map((row) => row.reduce((sum, v) => sum + v, 0));
  const seriesTotals = series.map((_, s) => values.reduce((sum, row) => sum + row[s]!, 0));
  return { days, series, values, dayTotals, seriesTotals, total: dayTotals.reduce((sum, v) => sum + v, 0) };
}
