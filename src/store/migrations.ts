/**
 * The database schema as numbered migrations, applied in order by `migrateDatabase`.
 * A migration is never edited once released: change the schema by appending a new one.
 * Timestamps are ISO 8601 UTC text (they sort lexicographically); JSON columns hold
 * text written by JSON.stringify.
 */

/** One schema step. */
export interface Migration {
  /** 1, 2, 3, … with no gaps; recorded in `schema_migrations` once applied. */
  version: number;
  /** Short description, recorded beside the version for people reading the database. */
  name: string;
  /** Statements run in the migration's transaction. */
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, turns and messages',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        cwd TEXT NOT NULL,
        additional_directories TEXT NOT NULL DEFAULT '[]',
        title TEXT,
        model TEXT,
        mode TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        total_cost_usd REAL NOT NULL DEFAULT 0,
        meta TEXT NOT NULL DEFAULT '{}'
      );
      -- listSessions pages by (updated_at, id) descending, with or without a cwd filter.
      CREATE INDEX sessions_by_updated ON sessions (updated_at DESC, id DESC);
      CREATE INDEX sessions_by_cwd_updated ON sessions (cwd, updated_at DESC, id DESC);

      CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('running', 'end_turn', 'max_tokens',
          'max_turn_requests', 'refusal', 'cancelled', 'error', 'interrupted')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        error TEXT
      );
      CREATE INDEX turns_by_session ON turns (session_id, started_at);
      -- recoverInterruptedTurns scans only the (normally empty) set of running turns.
      CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

      -- turn_id is not a foreign key: history imported or rewritten by compaction may
      -- carry turn ids that have no row in turns.
      CREATE TABLE messages (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        id TEXT NOT NULL UNIQUE,
        turn_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'interrupted')),
        model TEXT,
        usage TEXT,
        cost_usd REAL,
        meta TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
];

/** The newest schema version this build knows. */
export const latestSchemaVersion: number = migrations[migrations.length - 1]?.version ?? 0;
