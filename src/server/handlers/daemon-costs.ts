import type { DayModelCost } from '../../store/store.js';
import type { RequestHandler } from '../handler-table.js';
import { RpcError } from '../wire/rpc-error.js';

const DEFAULT_DAYS = 30;

/**
 * Spending per UTC day and model over stored sessions, with totals per model and overall.
 * Without dates: the 30 days ending today (UTC).
 */
export const daemonCosts: RequestHandler<'daemon/costs'> = async (params, { daemon }) => {
  const until = params.until === undefined ? new Date().toISOString().slice(0, 10) : utcDay('until', params.until);
  const since = params.since === undefined ? shiftDay(until, -(DEFAULT_DAYS - 1)) : utcDay('since', params.since);
  if (since > until) {
    throw RpcError.invalidParams('daemon/costs', [`since: ${since} is after until ${until}; pass a since on or before until`]);
  }
  const days = await daemon.sessions.store.costTotals({ sinceDay: since, untilDay: until, ...(params.cwd !== undefined ? { cwd: params.cwd } : {}) });
  return { days, byModel: byModel(days), totalUsd: days.reduce((sum, row) => sum + row.costUsd, 0), since, until };
};

/** The day itself when `value` is a real UTC calendar day written `YYYY-MM-DD`; else InvalidParams naming the field. */
function utcDay(field: 'since' | 'until', value: string): string {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : undefined;
  // 2025-02-30 parses as March 2: a real day prints back as itself.
  if (parsed === undefined || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    throw RpcError.invalidParams('daemon/costs', [`${field}: ${JSON.stringify(value)} is not a UTC day; write it as YYYY-MM-DD, e.g. 2025-06-01`]);
  }
  return value;
}

function shiftDay(day: string, by: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + by);
  return date.toISOString().slice(0, 10);
}

/** Totals per model, most expensive first (then by name, for a stable order). */
function byModel(days: DayModelCost[]): Array<{ model: string; costUsd: number; requests: number }> {
  const totals = new Map<string, { model: string; costUsd: number; requests: number }>();
  for (const row of days) {
    const total = totals.get(row.model) ?? { model: row.model, costUsd: 0, requests: 0 };
    total.costUsd += row.costUsd;
    total.requests += row.requests;
    totals.set(row.model, total);
  }
  return [...totals.values()].sort((a, b) => b.costUsd - a.costUsd || a.model.localeCompare(b.model));
}
