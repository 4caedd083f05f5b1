import { formatUsd } from '../format/format-usd.js';
import type { CostSeries } from './cost-series.js';

/** The chart's key: each series' colour swatch, name and total over the range. */
export function CostLegend({ data }: { data: CostSeries }) {
  if (data.series.length === 0) return null;
  return (
    <ul class="cost-legend" aria-label="Models in the chart">
      {data.series.map((name, s) => (
        <li key={name}>
          <span class={`cost-swatch cost-series-${s}`} aria-hidden="true" />
          <span class="cost-legend-name">{name}</span> <span class="cost-legend-total">{formatUsd(data.seriesTotals[s]!)}</span>
        </li>
      ))}
    </ul>
  );
}
