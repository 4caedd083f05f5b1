import type Database from 'better-sqlite3';
import type { CostQuery, DayModelCost } from './store.js';

/**
 * Sums the priced messages of whole UTC days: created_at is ISO 8601 UTC text, so a day is
 * its first ten characters and a range of days is a range of text, through the partial
 * index messages_priced_by_created.
 */
export function costTotals(db: Database.Database, query: CostQuery): DayModelCost[] {
  const cwd = query.cwd === undefined ? '' : 'AND m.session_id IN (SELECT id FROM sessions WHERE cwd = ?)';
  const rows = db
    .prepare(
      `SELECT substr(m.created_at, 1, 10) AS day, m.model AS model,
              COALESCE(SUM(m.cost_usd), 0) AS costUsd, COUNT(*) AS requests,
              COALESCE(SUM(json_extract(m.usage, '$.inputTokens')), 0) AS inputTokens,
              COALESCE(SUM(json_extract(m.usage, '$.outputTokens')), 0) AS outputTokens
       FROM messages m
       WHERE m.model IS NOT NULL AND m.created_at >= ? AND m.created_at < ? ${cwd}
       GROUP BY day, m.model
       ORDER BY day, m.model`,
    )
    .all(query.sinceDay, `${dayAfter(query.untilDay)}`, ...(query.cwd === undefined ? [] : [query.cwd])) as DayModelCost[];
  return rows;
}

/** The `YYYY-MM-DD` after `day`: the exclusive end of a range that includes `day`. */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
