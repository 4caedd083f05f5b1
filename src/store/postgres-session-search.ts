import type { SessionSearch, SessionSearchPage, TurnRecord, CostQuery, DayModelCost } from './store.js';
import type { PostgresQuery } from './postgres-query.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';
import { StoreError } from './store-error.js';
import { type SessionRow, type TurnRow, toSessionRecord, toTurnRecord } from './store-rows.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

// The newest turn of s; `ord` breaks ties as SQLite's rowid does.
const LAST_TURN_STATUS = `(SELECT t.status FROM turns t WHERE t.session_id = s.id ORDER BY t.started_at DESC, t.ord DESC LIMIT 1)`;

/** SQLite's LIKE folds ASCII letters only; translate() does the same here (lower() would fold every script). */
const FOLD_ASCII = (expression: string): string => `translate(${expression}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/** searchSessions with the SQLite implementation's semantics (sqlite-session-search.ts) and its cursor. */
export async function searchSessions(query: PostgresQuery, search: SessionSearch): Promise<SessionSearchPage> {
  const limit = searchPageSize(search.limit);
  const where: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (search.cwd !== undefined) where.push(`s.cwd = ${bind(search.cwd)}`);
  if (search.titleContains !== undefined && search.titleContains !== '') {
    const pattern = `%${search.titleContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`${FOLD_ASCII('s.title')} LIKE ${FOLD_ASCII(bind(pattern))} ESCAPE '\\'`);
  }
  if (search.select !== undefined) {
    const either = [`s.id = ANY(${bind(search.select.ids)}::text[])`];
    const stored = search.select.stored;
    if (stored !== undefined) {
      const failed = stored.lastTurnFailed;
      const outcome = failed === undefined ? '' : failed ? ` AND ${LAST_TURN_STATUS} = 'error'` : ` AND COALESCE(${LAST_TURN_STATUS}, '') <> 'error'`;
      either.push(`(NOT (s.id = ANY(${bind(stored.exceptIds)}::text[]))${outcome})`);
    }
    where.push(`(${either.join(' OR ')})`);
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const counted = await query<{ total: number }>(`SELECT COUNT(*)::int AS total FROM sessions s ${filter}`, params);
  const total = counted[0]?.total ?? 0;
  if (search.cursor !== undefined) {
    const after = decodeSessionCursor(search.cursor);
    where.push(`(s.updated_at < ${bind(after.updatedAt)} OR (s.updated_at = $${params.length} AND s.id < ${bind(after.id)}))`);
  }
  const paged = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const rows = await query<SessionRow>(
    `SELECT s.* FROM sessions s ${paged} ORDER BY s.updated_at DESC, s.id DESC LIMIT ${bind(limit + 1)}`,
    params,
  );
  const page = rows.slice(0, limit).map(toSessionRecord);
  const last = page[page.length - 1];
  const sessions = [];
  for (const record of page) sessions.push({ record, lastTurn: (await lastTurn(query, record.id)) ?? null });
  return { sessions, nextCursor: rows.length > limit && last !== undefined ? encodeSessionCursor(last) : null, total };
}

/** The session's newest turn, if it has one. */
export async function lastTurn(query: PostgresQuery, sessionId: string): Promise<TurnRecord | undefined> {
  const rows = await query<TurnRow>('SELECT * FROM turns WHERE session_id = $1 ORDER BY started_at DESC, ord DESC LIMIT 1', [sessionId]);
  return rows[0] === undefined ? undefined : toTurnRecord(rows[0]);
}

/** costTotals as SQLite sums it (sqlite-cost-totals.ts): whole UTC days of created_at text. */
export async function costTotals(query: PostgresQuery, search: CostQuery): Promise<DayModelCost[]> {
  const cwd = search.cwd === undefined ? '' : 'AND m.session_id IN (SELECT id FROM sessions WHERE cwd = $3)';
  return query<DayModelCost>(
    `SELECT substr(m.created_at, 1, 10) AS day, m.model AS model,
            COALESCE(SUM(m.cost_usd), 0)::float8 AS "costUsd", COUNT(*)::int AS requests,
            COALESCE(SUM((m.usage::jsonb ->> 'inputTokens')::float8), 0)::float8 AS "inputTokens",
            COALESCE(SUM((m.usage::jsonb ->> 'outputTokens')::float8), 0)::float8 AS "outputTokens"
     FROM messages m
     WHERE m.model IS NOT NULL AND m.created_at >= $1 AND m.created_at < $2 ${cwd}
     GROUP BY 1, 2
     ORDER BY 1, 2`,
    [search.sinceDay, dayAfter(search.untilDay), ...(search.cwd === undefined ? [] : [search.cwd])],
  );
}

function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function searchPageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new StoreError('invalid_argument', `session search limit must be a whole number from 1 to ${MAX_PAGE}, got ${String(limit)}`);
  }
  return limit;
}
