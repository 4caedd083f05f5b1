import { formatUsd } from '../format/format-usd.js';
import { costChartGeometry } from './cost-chart.js';
import type { CostSeries } from './cost-series.js';

/** SVG user units to a hundredth: finer than a screen shows, and the markup stays short. */
const r = (n: number): number => Math.round(n * 100) / 100;

export interface CostChartSvgProps {
  data: CostSeries;
  /** Prefix of the SVG's title and desc ids, unique on the page. */
  idPrefix: string;
}

/**
 * The stacked bar chart of cost per day, drawn from costChartGeometry. Colours come from
 * the stylesheet by series (`cost-series-N`, the CSP forbids inline styles); the title and
 * desc name what it shows, and each segment's own title gives its day, model and cost. The
 * table beside it carries the same numbers for screen readers.
 */
export function CostChartSvg({ data, idPrefix }: CostChartSvgProps) {
  const chart = costChartGeometry(data);
  const titleId = `${idPrefix}-title`;
  const descId = `${idPrefix}-desc`;
  const range = data.days.length > 0 ? `${data.days[0]} to ${data.days[data.days.length - 1]}` : 'no days';
  return (
    <svg class="cost-chart" viewBox={`0 0 ${chart.width} ${chart.height}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
      <title id={titleId}>Cost per day by model</title>
      <desc id={descId}>
        {`Stacked bars of the cost of each UTC day from ${range}, one colour per model (${data.series.join(', ') || 'none'}); ` +
          `total ${formatUsd(data.total)}. The table "Cost per day" has the same numbers.`}
      </desc>
      <g class="cost-chart-axis">
        {chart.ticks.map((tick) => (
          <g key={tick.valueUsd}>
            <line x1={chart.plot.left} x2={chart.plot.right} y1={r(tick.y)} y2={r(tick.y)} class="cost-chart-grid" />
            <text x={chart.plot.left - 6} y={r(tick.y)} class="cost-chart-tick" text-anchor="end" dominant-baseline="middle">
              {formatUsd(tick.valueUsd)}
            </text>
          </g>
        ))}
        <line x1={chart.plot.left} x2={chart.plot.right} y1={chart.plot.bottom} y2={chart.plot.bottom} class="cost-chart-baseline" />
      </g>
      {chart.bars.map((bar) => (
        <g key={bar.day} class="cost-chart-bar">
          {bar.segments.map((segment) => (
            <rect key={segment.series} class={`cost-series-${segment.series}`} x={r(bar.x)} y={r(segment.y)} width={r(bar.width)} height={r(segment.height)}>
              <title>{`${bar.day}, ${data.series[segment.series]}: ${formatUsd(segment.costUsd)}`}</title>
            </rect>
          ))}
          {bar.labelled ? (
            <text x={r(bar.x + bar.width / 2)} y={chart.plot.bottom + 18} class="cost-chart-day" text-anchor="middle">
              {bar.day.slice(5)}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
