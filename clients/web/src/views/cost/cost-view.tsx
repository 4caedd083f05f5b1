import { useEffect, useState } from 'preact/hooks';
import type { ResultOf } from '../../../../../protocol/index.js';
import { errorText } from '../error-text.js';
import { formatUsd } from '../format/format-usd.js';
import type { ViewClient } from '../view-client.js';
import { CostChartSvg } from './cost-chart-svg.js';
import { rangeEnding, type CostRange } from './cost-days.js';
import { CostDayTable } from './cost-day-table.js';
import { CostLegend } from './cost-legend.js';
import { CostModelTable } from './cost-model-table.js';
import { CostRangePicker } from './cost-range-picker.js';
import { costSeries } from './cost-series.js';
import '../views.css';
import './cost.css';

type Costs = ResultOf<'daemon/costs'>;

const requestCount = (n: number): string => `${n.toLocaleString('en-US')} model request${n === 1 ? '' : 's'}`;

/** Cost over the stored sessions: per day and model as a chart and tables, with totals, for the last 7, 30 or 90 days. */
export function CostView({ client }: { client: ViewClient }) {
  const [range, setRange] = useState<CostRange>(30);
  const [costs, setCosts] = useState<Costs | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    setError(null);
    void client.request('daemon/costs', rangeEnding(new Date(), range)).then(
      (result) => current && setCosts(result),
      (failure: unknown) => current && setError(errorText(failure)),
    );
    // A slower answer for a range no longer picked must not overwrite the newer one.
    return () => {
      current = false;
    };
  }, [client, range, version]);

  const data = costs ? costSeries(costs.days, costs.since, costs.until) : null;
  return (
    <section class="cost-view" aria-labelledby="cost-heading">
      <header class="view-header">
        <h1 id="cost-heading">Cost</h1>
        <CostRangePicker value={range} onChange={setRange} />
        <button type="button" onClick={() => setVersion((v) => v + 1)}>
          Refresh
        </button>
      </header>
      {error ? (
        <p role="alert" class="view-error">
          {`Could not load the costs: ${error}`}
        </p>
      ) : null}
      {costs && data ? (
        <>
          <p class="cost-total" aria-live="polite">
            {`Total ${formatUsd(costs.totalUsd)} from ${costs.since} to ${costs.until} (UTC), ${requestCount(costs.byModel.reduce((sum, m) => sum + m.requests, 0))}`}
          </p>
          <figure class="cost-figure">
            <CostChartSvg data={data} idPrefix="cost-chart" />
            <figcaption>
              <CostLegend data={data} />
            </figcaption>
          </figure>
          <CostModelTable models={costs.byModel} totalUsd={costs.totalUsd} />
          <CostDayTable data={data} />
        </>
      ) : error ? null : (
        <p class="view-loading">Loading costs…</p>
      )}
    </section>
  );
}
