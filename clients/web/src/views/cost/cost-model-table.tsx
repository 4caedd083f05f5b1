import { formatUsd } from '../format/format-usd.js';

export interface ModelCost {
  model: string;
  costUsd: number;
  requests: number;
}

/** Totals per model over the range (every model, also those the chart folds into "Other models"). */
export function CostModelTable({ models, totalUsd }: { models: readonly ModelCost[]; totalUsd: number }) {
  const requests = models.reduce((sum, m) => sum + m.requests, 0);
  return (
    <table class="cost-table">
      <caption>Cost per model</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Requests</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={m.model}>
            <th scope="row">{m.model}</th>
            <td>{m.requests.toLocaleString('en-US')}</td>
            <td>{formatUsd(m.costUsd)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{requests.toLocaleString('en-US')}</td>
          <td>{formatUsd(totalUsd)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
