import { formatUsd } from '../format/format-usd.js';
import type { CostSeries } from './cost-series.js';

/**
 * The chart's numbers as a table, one row per day and a column per series, with totals;
 * 90 days scroll in a focusable region, so a keyboard can scroll them too.
 */
export function CostDayTable({ data }: { data: CostSeries }) {
  return (
    <div class="cost-table-scroll" tabIndex={0} role="region" aria-label="Cost per day, scrollable">
      <table class="cost-table">
        <caption>Cost per day</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {data.series.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {data.days.map((day, d) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {data.values[d]!.map((usd, s) => (
                <td key={data.series[s]}>{formatUsd(usd)}</td>
              ))}
              <td>{formatUsd(data.dayTotals[d]!)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            {data.seriesTotals.map((usd, s) => (
              <td key={data.series[s]}>{formatUsd(usd)}</td>
            ))}
            <td>{formatUsd(data.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
