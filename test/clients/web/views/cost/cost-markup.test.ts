import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { CostChartSvg } from '../../../../../clients/web/src/views/cost/cost-chart-svg.js';
import { CostDayTable } from '../../../../../clients/web/src/views/cost/cost-day-table.js';
import { CostLegend } from '../../../../../clients/web/src/views/cost/cost-legend.js';
import { CostModelTable } from '../../../../../clients/web/src/views/cost/cost-model-table.js';
import { CostRangePicker } from '../../../../../clients/web/src/views/cost/cost-range-picker.js';
import { costSeries } from '../../../../../clients/web/src/views/cost/cost-series.js';
import { unnamedControls } from '../../../../support/unnamed-controls.js';

const data = costSeries(
  [
    { day: '2026-11-25', model: 'anthropic/claude', costUsd: 0.42 },
    { day: '2026-11-25', model: 'local/e2e-model', costUsd: 0.0042 },
    { day: '2026-11-27', model: 'local/e2e-model', costUsd: 1.5 },
  ],
  '2026-11-25',
  '2026-11-27',
);

describe('the cost chart', () => {
  const svg = renderToString(h(CostChartSvg, { data, idPrefix: 'c' }));

  it('is an image named by its title and described by its desc, with the total and the models', () => {
    expect(svg).toMatch(/^<svg class="cost-chart" viewBox="0 0 720 280" role="img" aria-labelledby="c-title c-desc">/);
    expect(svg).toContain('<title id="c-title">Cost per day by model</title>');
    expect(svg).toMatch(/<desc id="c-desc">[^<]*from 2026-11-25 to 2026-11-27[^<]*\(local\/e2e-model, anthropic\/claude\)[^<]*total \$1\.92\./);
  });

  it('draws one rect per model and day with cost, each titled with its numbers, coloured by class', () => {
    const rects = [...svg.matchAll(/<rect class="(cost-series-\d)"[^>]*><title>([^<]*)<\/title><\/rect>/g)].map((m) => [m[1], m[2]]);
    expect(rects).toEqual([
      ['cost-series-0', '2026-11-25, local/e2e-model: $0.0042'],
      ['cost-series-1', '2026-11-25, anthropic/claude: $0.42'],
      ['cost-series-0', '2026-11-27, local/e2e-model: $1.50'],
    ]);
    expect(unnamedControls(svg)).toEqual([]);
  });

  it('labels the value axis in dollars and the days by month and day', () => {
    expect([...svg.matchAll(/class="cost-chart-tick"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['$0.00', '$0.50', '$1.00', '$1.50']);
    expect(svg).toContain('>11-27</text>');
  });
});

describe('the cost tables', () => {
  it('carries the chart\'s numbers per day and model, zero days included, with totals', () => {
    const html = renderToString(h(CostDayTable, { data }));
    expect(html).toContain('<caption>Cost per day</caption>');
    expect(html).toContain('<tr><th scope="row">2026-11-26</th><td>$0.00</td><td>$0.00</td><td>$0.00</td></tr>');
    expect(html).toContain('<tr><th scope="row">2026-11-25</th><td>$0.0042</td><td>$0.42</td><td>$0.42</td></tr>');
    expect(html).toContain('<tfoot><tr><th scope="row">Total</th><td>$1.50</td><td>$0.42</td><td>$1.92</td></tr></tfoot>');
  });

  it('lists every model with its requests and cost', () => {
    const html = renderToString(
      h(CostModelTable, {
        models: [
          { model: 'local/e2e-model', costUsd: 1.5042, requests: 1200 },
          { model: 'anthropic/claude', costUsd: 0.42, requests: 3 },
        ],
        totalUsd: 1.9242,
      }),
    );
    expect(html).toContain('<tr><th scope="row">local/e2e-model</th><td>1,200</td><td>$1.50</td></tr>');
    expect(html).toContain('<tfoot><tr><th scope="row">Total</th><td>1,203</td><td>$1.92</td></tr></tfoot>');
  });

  it('keys the chart with a swatch per model and its total', () => {
    const html = renderToString(h(CostLegend, { data }));
    expect(html).toContain('<span class="cost-swatch cost-series-1" aria-hidden="true"></span><span class="cost-legend-name">anthropic/claude</span> <span class="cost-legend-total">$0.42</span>');
  });
});

describe('the range picker', () => {
  it('is a labelled radio group of 7, 30 and 90 days with the current one checked', () => {
    const html = renderToString(h(CostRangePicker, { value: 30, onChange: () => undefined }));
    expect(html).toContain('<legend>Range</legend>');
    expect([...html.matchAll(/<input type="radio" name="cost-range" value="(\d+)"( checked)?/g)].map((m) => [m[1], Boolean(m[2])])).toEqual([
      ['7', false],
      ['30', true],
      ['90', false],
    ]);
    expect(unnamedControls(html)).toEqual([]);
  });
});
