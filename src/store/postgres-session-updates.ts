import pg from 'pg';
import { isUniqueViolation, redactStoreUrl, toStoreError } from './postgres-errors.js';
import { type PostgresQuery, queryOn } from './postgres-query.js';
import type { MessageRecord, SessionRecord, TurnRecord } from './store.js';
import { type MessageRow, type SessionRow, type TurnRow, toMessageRecord, toSessionRecord, toTurnRecord } from './store-rows.js';

/** The channel a daemon NOTIFYs after appending a session's updates; the payload is `<session id> <newest seq> <daemon id>`. */
export const SESSION_UPDATES_CHANNEL = 'agentd_session_updates';

/** One update to append: an event the session showed its followers, as JSON text. */
export interface NewSessionUpdate {
  /** The turn that showed it; null for a change outside any turn (a mode or model set while idle). */
  turnId: string | null;
  /** The event's type. */
  kind: string;
  event: string;
}

/** A stored update, numbered per session in the order its daemon sent it. */
export interface SessionUpdateRow {
  seq: number;
  /** Null for a change outside any turn. */
  turnId: string | null;
  kind: string;
  /** The daemonId of the daemon that ran the turn. */
  origin: string;
  event: string;
}

/** A session's record, turns, messages and updates read in one snapshot of the database, and the database's clock then. */
export interface SessionUpdatesSnapshot {
  record: SessionRecord | undefined;
  turns: TurnRecord[];
  messages: MessageRecord[];
  updates: SessionUpdateRow[];
  /** The database's now(), ISO 8601 UTC. */
  now: string;
}

interface UpdateRow {
  seq: string;
  turn_id: string | null;
  kind: string;
  origin: string;
  event: string;
}

/** Two daemons appending to one session at once (a turn ending on one as the next starts on another): the loser retries. */
const APPEND_ATTEMPTS = 10;

/**
 * The session_updates table on a small pool of its own (the store's URL): appending a
 * batch and its NOTIFY in one statement, reading after a cursor, one consistent snapshot
 * for a client that loads a session, and pruning. Loaded only on PostgreSQL.
 */
export class PostgresSessionUpdates {
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #query: PostgresQuery;

  constructor(url: string) {
    this.#where = redactStoreUrl(url);
    this.#pool = new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 10_000, application_name: 'agentd-session-updates' });
    // An idle client's dropped connection is reported here; the next query gets a fresh one.
    this.#pool.on('error', () => undefined);
    this.#query = queryOn(this.#pool, this.#where);
  }

  /**
   * Appends `updates` after the session's newest one and NOTIFYs their newest seq, in one
   * statement (the notification goes out when it commits); returns that seq.
   */
  async append(sessionId: string, origin: string, updates: readonly NewSessionUpdate[]): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const rows = await this.#query<{ seq: string }>(
          `WITH head AS (SELECT COALESCE(MAX(seq), 0) AS seq FROM session_updates WHERE session_id = $1),
           added AS (
             INSERT INTO session_updates (session_id, seq, turn_id, kind, origin, event)
             SELECT $1, head.seq + u.n, u.turn_id, u.kind, $2, u.event
             FROM head, unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u (turn_id, kind, event, n)
             RETURNING seq
           )
           SELECT MAX(seq) AS seq, pg_notify($6, $1 || ' ' || MAX(seq) || ' ' || $2) FROM added`,
          [sessionId, origin, updates.map((u) => u.turnId), updates.map((u) => u.kind), updates.map((u) => u.event), SESSION_UPDATES_CHANNEL],
        );
        return Number(rows[0]!.seq);
      } catch (error) {
        if (attempt < APPEND_ATTEMPTS && isUniqueViolation(error, 'session_updates_pkey')) continue;
        throw error;
      }
    }
  }

  /** The session's updates after `seq`, in order. */
  async after(sessionId: string, seq: number): Promise<SessionUpdateRow[]> {
    const rows = await this.#query<UpdateRow>(
      'SELECT seq, turn_id, kind, origin, event FROM session_updates WHERE session_id = $1 AND seq > $2 ORDER BY seq',
      [sessionId, seq],
    );
    return rows.map(toUpdate);
  }

  /** The session's newest seq (0 when it has none). */
  async newest(sessionId: string): Promise<number> {
    const rows = await this.#query<{ seq: string | null }>('SELECT MAX(seq) AS seq FROM session_updates WHERE session_id = $1', [sessionId]);
    return Number(rows[0]?.seq ?? 0);
  }

  /**
   * The session as one snapshot shows it (REPEATABLE READ): its record, turns, messages and
   * updates agree with each other, so a replay built from them meets the updates after them.
   */
  async snapshot(sessionId: string): Promise<SessionUpdatesSnapshot> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw toStoreError(error, this.#where);
    }
    const query = queryOn(client, this.#where);
    try {
      await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const [session] = await query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [sessionId]);
      const turns = await query<TurnRow>('SELECT * FROM turns WHERE session_id = $1 ORDER BY started_at, ord', [sessionId]);
      const messages = await query<MessageRow>('SELECT * FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
      const updates = await query<UpdateRow>('SELECT seq, turn_id, kind, origin, event FROM session_updates WHERE session_id = $1 ORDER BY seq', [sessionId]);
      const [clock] = await query<{ now: Date }>('SELECT now() AS now');
      await query('COMMIT');
      return {
        record: session ? toSessionRecord(session) : undefined,
        turns: turns.map(toTurnRecord),
        messages: messages.map(toMessageRecord),
        updates: updates.map(toUpdate),
        now: clock!.now.toISOString(),
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw toStoreError(error, this.#where);
    } finally {
      client.release();
    }
  }

  /**
   * Deletes the session's updates of turns that ended more than a minute ago (a follower
   * cut off for less than that still finds what it missed), of turns whose daemon died
   * mid-turn an hour ago, and changes outside a turn older than a minute; never those of
   * `keepTurnId`, its newest turn, nor its newest update (the next seq counts on from it).
   */
  async prune(sessionId: string, keepTurnId: string): Promise<void> {
    await this.#query(
      `DELETE FROM session_updates
       WHERE session_id = $1 AND (
         (turn_id <> $2 AND turn_id IN (
           SELECT turn_id FROM session_updates WHERE session_id = $1 AND kind = 'turn_end' AND created_at < now() - interval '1 minute'
           UNION
           SELECT turn_id FROM session_updates WHERE session_id = $1 AND turn_id IS NOT NULL GROUP BY turn_id HAVING MAX(created_at) < now() - interval '1 hour'
         ))
         OR (turn_id IS NULL AND created_at < now() - interval '1 minute'
             AND seq < (SELECT MAX(seq) FROM session_updates WHERE session_id = $1))
       )`,
      [sessionId, keepTurnId],
    );
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

function toUpdate(row: UpdateRow): SessionUpdateRow {
  return { seq: Number(row.seq), turnId: row.turn_id, kind: row.kind, origin: row.origin, event: row.event };
}
