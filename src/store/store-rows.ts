/**
 * Row shapes as better-sqlite3 returns them, and their conversion to records.
 * JSON columns are written and parsed here, once, so callers never see JSON text.
 */
import { z } from 'zod';
import { readSessionMeta } from './session-meta.js';
import { StoreError } from './store-error.js';
import type { MessageRecord, MessageRole, MessageStatus, SessionRecord, StoredUsage, TurnRecord, TurnStatus } from './store.js';

export interface SessionRow {
  id: string;
  cwd: string;
  additional_directories: string;
  title: string | null;
  model: string | null;
  mode: string;
  created_at: string;
  updated_at: string;
  total_cost_usd: number;
  meta: string;
}

export interface TurnRow {
  id: string;
  session_id: string;
  status: TurnStatus;
  started_at: string;
  ended_at: string | null;
  error: string | null;
}

export interface MessageRow {
  session_id: string;
  seq: number;
  id: string;
  turn_id: string;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  model: string | null;
  usage: string | null;
  cost_usd: number | null;
  meta: string | null;
  created_at: string;
}

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    cwd: row.cwd,
    additionalDirectories: JSON.parse(row.additional_directories) as string[],
    title: row.title,
    model: row.model,
    mode: row.mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    totalCostUsd: row.total_cost_usd,
    meta: readSessionMeta(JSON.parse(row.meta)),
  };
}

export function toTurnRecord(row: TurnRow): TurnRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    status: row.status,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    error: row.error,
  };
}

/** A message's meta is free-form upper-layer data, but always a JSON object: anything else reads as none. */
const storedMessageMeta = z.record(z.string(), z.unknown()).nullable().catch(null);

export function toMessageRecord(row: MessageRow): MessageRecord {
  return {
    seq: row.seq,
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    role: row.role,
    content: JSON.parse(row.content) as unknown[],
    status: row.status,
    model: row.model,
    usage: row.usage === null ? null : (JSON.parse(row.usage) as StoredUsage),
    costUsd: row.cost_usd,
    meta: row.meta === null ? null : storedMessageMeta.parse(JSON.parse(row.meta)),
    createdAt: row.created_at,
  };
}

/** JSON text for a JSON column, with an error naming the field when it is not JSON. */
export function toJsonColumn(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StoreError(
      'invalid_argument',
      `${field} cannot be stored as JSON (${error instanceof Error ? error.message : String(error)}); pass plain JSON data`,
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new StoreError('invalid_argument', `${field} cannot be stored as JSON; pass plain JSON data`);
  }
  return text;
}

/** A session field the caller must give: a non-empty string. */
export function requireText(value: unknown, what: string): void {
  if (typeof value !== 'string' || value === '') {
    throw new StoreError('invalid_argument', `${what} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
}

const DEFAULT_SESSION_PAGE = 50;
const MAX_SESSION_PAGE = 200;

/** The page size of a session list: 50 when unset, at most 200. */
export function sessionPageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_SESSION_PAGE;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new StoreError('invalid_argument', `session list limit must be a whole number >= 1, got ${String(limit)}`);
  }
  return Math.min(limit, MAX_SESSION_PAGE);
}

/** The columns `updateSession` sets, `updated_at` first, with their stored values. */
export function sessionPatchColumns(
  patch: Partial<Pick<SessionRecord, 'title' | 'model' | 'mode' | 'meta' | 'additionalDirectories'>>,
  now: string,
): Array<[string, unknown]> {
  const columns: Array<[string, unknown]> = [['updated_at', now]];
  if (patch.title !== undefined) columns.push(['title', patch.title]);
  if (patch.model !== undefined) columns.push(['model', patch.model]);
  if (patch.mode !== undefined) columns.push(['mode', patch.mode]);
  if (patch.meta !== undefined) columns.push(['meta', toJsonColumn(patch.meta, 'meta')]);
  if (patch.additionalDirectories !== undefined) {
    columns.push(['additional_directories', toJsonColumn(patch.additionalDirectories, 'additionalDirectories')]);
  }
  return columns;
}
