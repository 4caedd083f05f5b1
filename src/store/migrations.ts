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
  {
    version: 2,
    name: 'schedules and their runs',
    sql: `
      -- Schedules added over the protocol; config.json's live in the file. The definition
      -- is the schedule's fields as JSON, checked by the scheduler when it is read.
      CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        definition TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      -- Runs of any schedule, config ones included, so schedule_id is not a foreign key,
      -- and a removed schedule keeps its history. session_id is null when no session was
      -- made (skipped, or failed before); ended_at and outcome are null while it runs.
      CREATE TABLE schedule_runs (
        id TEXT PRIMARY KEY,
        schedule_id TEXT NOT NULL,
        session_id TEXT,
        trigger TEXT NOT NULL CHECK (trigger IN ('cron', 'manual', 'missed')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        outcome TEXT CHECK (outcome IN ('completed', 'failed', 'timed_out', 'cancelled', 'skipped')),
        stop_reason TEXT,
        cost_usd REAL NOT NULL DEFAULT 0,
        error TEXT
      );
      -- History pages by (started_at, rowid) descending per schedule.
      CREATE INDEX schedule_runs_by_schedule ON schedule_runs (schedule_id, started_at DESC);
      -- Start-up recovery scans only the (normally empty) set of unfinished runs.
      CREATE INDEX schedule_runs_unfinished ON schedule_runs (ended_at) WHERE ended_at IS NULL;
    `,
  },
  {
    version: 3,
    name: 'priced messages by time',
    sql: `
      -- Cost totals over a range of days read only the messages a model produced.
      CREATE INDEX messages_priced_by_created ON messages (created_at) WHERE model IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'one run per schedule and due time',
    sql: `
      -- When a cron or missed run was due (ISO 8601 UTC); null for a manual run. Daemons
      -- sharing a database each fire a schedule's timer: the first to insert a (schedule,
      -- due time) runs it, and the others' inserts are refused, so it runs once.
      ALTER TABLE schedule_runs ADD COLUMN due_at TEXT;
      -- The daemon that recorded the run and runs it: start-up recovery of a daemon sharing
      -- the database ends only the runs of daemons that are gone.
      ALTER TABLE schedule_runs ADD COLUMN daemon_id TEXT;
      CREATE UNIQUE INDEX schedule_runs_once_per_due_time ON schedule_runs (schedule_id, due_at) WHERE due_at IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'daemons and session leases',
    sql: `
      -- As PostgreSQL's (postgres-migrations.ts), with times as milliseconds since 1970 by
      -- SQLite's clock. One daemon uses a data directory, so it holds every lease it asks for.
      CREATE TABLE daemons (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        roots TEXT NOT NULL DEFAULT '[]',
        concurrency INTEGER NOT NULL,
        lease_ms INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        running_turns INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE session_leases (
        session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        owner TEXT,
        epoch INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX session_leases_by_owner ON session_leases (owner) WHERE owner IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'pending prompts: steers and follow-ups waiting for a running turn',
    sql: `
      -- As PostgreSQL's (postgres-migrations.ts). A steer or follow-up is stored here before
      -- its request is answered and removed when its turn takes it (in the transaction that
      -- appends it) or drops it; a daemon started after a crash runs what is left as turns.
      CREATE TABLE pending_prompts (
        ord INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        queue TEXT NOT NULL CHECK (queue IN ('steering', 'followUp')),
        content TEXT NOT NULL,
        origin TEXT,
        daemon_id TEXT NOT NULL,
        claimed_by TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX pending_prompts_by_session ON pending_prompts (session_id, ord);
    `,
  },
];

/** The newest schema version this build knows. */
export const latestSchemaVersion: number = migrations[migrations.length - 1]?.version ?? 0;
