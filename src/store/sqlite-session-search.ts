import type Database from 'better-sqlite3';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';
import { sqliteStatement } from './sqlite-statement.js';
import type { SessionSearch, SessionSearchPage, TurnRecord } from './store.js';
import { StoreError } from './store-error.js';
import { type SessionRow, type TurnRow, toSessionRecord, toTurnRecord } from './store-rows.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

// The newest turn of s, through turns_by_session (session_id, started_at).
const LAST_TURN_STATUS = `(SELECT t.status FROM turns t WHERE t.session_id = s.id ORDER BY t.started_at DESC, t.rowid DESC LIMIT 1)`;

/**
 * Newest activity first, keyset-paged by (updated_at, id) like listSessions, so a page
 * never repeats or skips a session that stayed put while others changed. Id lists are
 * bound as one JSON array (json_each), whatever their length.
 */
export function searchSessions(db: Database.Database, search: SessionSearch): SessionSearchPage {
  const limit = searchPageSize(search.limit);
  const where: string[] = [];
  const params: unknown[] = [];
  if (search.cwd !== undefined) {
    where.push('s.cwd = ?');
    params.push(search.cwd);
  }
  if (search.titleContains !== undefined && search.titleContains !== '') {
    where.push(`s.title LIKE ? ESCAPE '\\'`);
    params.push(`%${search.titleContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (search.select !== undefined) {
    const either = ['s.id IN (SELECT value FROM json_each(?))'];
    params.push(JSON.stringify(search.select.ids));
    const stored = search.select.stored;
    if (stored !== undefined) {
      const failed = stored.lastTurnFailed;
      const outcome = failed === undefined ? '' : failed ? ` AND ${LAST_TURN_STATUS} = 'error'` : ` AND COALESCE(${LAST_TURN_STATUS}, '') <> 'error'`;
      either.push(`(s.id NOT IN (SELECT value FROM json_each(?))${outcome})`);
      params.push(JSON.stringify(stored.exceptIds));
    }
    where.push(`(${either.join(' OR ')})`);
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const { total } = db.prepare(`SELECT COUNT(*) AS total FROM sessions s ${filter}`).get(...params) as { total: number };
  const paged = [...where];
  const pagedParams = [...params];
  if (search.cursor !== undefined) {
    const after = decodeSessionCursor(search.cursor);
    paged.push('(s.updated_at < ? OR (s.updated_at = ? AND s.id < ?))');
    pagedParams.push(after.updatedAt, after.updatedAt, after.id);
  }
  const rows = db
    .prepare(`SELECT s.* FROM sessions s ${paged.length > 0 ? `WHERE ${paged.join(' AND ')}` : ''} ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`)
    .all(...pagedParams, limit + 1) as SessionRow[];
  const page = rows.slice(0, limit).map(toSessionRecord);
  const last = page[page.length - 1];
  return {
    sessions: page.map((record) => ({ record, lastTurn: lastTurn(db, record.id) ?? null })),
    nextCursor: rows.length > limit && last !== undefined ? encodeSessionCursor(last) : null,
    total,
  };
}

/** The session's newest turn, if it has one. */
export function lastTurn(db: Database.Database, sessionId: string): TurnRecord | undefined {
  const row = sqliteStatement(db, 'SELECT * FROM turns WHERE session_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1').get(sessionId) as TurnRow | undefined;
  return row === undefined ? undefined : toTurnRecord(row);
}

function searchPageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new StoreError('invalid_argument', `session search limit must be a whole number from 1 to ${MAX_PAGE}, got ${String(limit)}`);
  }
  return limit;
}
