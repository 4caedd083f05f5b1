/**
 * The PostgreSQL schema as numbered migrations, the same tables as SQLite's (migrations.ts)
 * so records read back identically: timestamps are ISO 8601 UTC text (they sort as text,
 * and cursors carry them unchanged), JSON columns hold the text JSON.stringify wrote.
 * Where SQLite breaks ties by rowid, an identity column `ord` does. Text compares and sorts
 * bytewise (COLLATE "C") as in SQLite, whatever the database's locale, so pages and
 * cursors come out the same. Never edit a released
 * migration: append a new one.
 */
import type { Migration } from './migrations.js';

export const postgresMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, turns, messages, schedules and their runs',
    sql: `
      CREATE TABLE sessions (
        id TEXT COLLATE "C" PRIMARY KEY,
        cwd TEXT COLLATE "C" NOT NULL,
        additional_directories TEXT COLLATE "C" NOT NULL DEFAULT '[]',
        title TEXT COLLATE "C",
        model TEXT COLLATE "C",
        mode TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL,
        total_cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
        meta TEXT COLLATE "C" NOT NULL DEFAULT '{}',
        -- The seq of the session's newest message: appendMessage takes the next one under the row's lock.
        last_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_by_updated ON sessions (updated_at DESC, id DESC);
      CREATE INDEX sessions_by_cwd_updated ON sessions (cwd, updated_at DESC, id DESC);

      CREATE TABLE turns (
        ord BIGINT GENERATED ALWAYS AS IDENTITY,
        id TEXT COLLATE "C" PRIMARY KEY,
        session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        status TEXT COLLATE "C" NOT NULL CHECK (status IN ('running', 'end_turn', 'max_tokens',
          'max_turn_requests', 'refusal', 'cancelled', 'error', 'interrupted')),
        started_at TEXT COLLATE "C" NOT NULL,
        ended_at TEXT COLLATE "C",
        error TEXT COLLATE "C"
      );
      CREATE INDEX turns_by_session ON turns (session_id, started_at, ord);
      CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

      -- turn_id is not a foreign key: compaction and imports may carry turn ids without a row.
      CREATE TABLE messages (
        session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        id TEXT COLLATE "C" NOT NULL UNIQUE,
        turn_id TEXT COLLATE "C" NOT NULL,
        role TEXT COLLATE "C" NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        content TEXT COLLATE "C" NOT NULL,
        status TEXT COLLATE "C" NOT NULL CHECK (status IN ('complete', 'interrupted')),
        model TEXT COLLATE "C",
        usage TEXT COLLATE "C",
        cost_usd DOUBLE PRECISION,
        meta TEXT COLLATE "C",
        created_at TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE INDEX messages_priced_by_created ON messages (created_at) WHERE model IS NOT NULL;

      CREATE TABLE schedules (
        id TEXT COLLATE "C" PRIMARY KEY,
        name TEXT COLLATE "C" NOT NULL UNIQUE,
        definition TEXT COLLATE "C" NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
      );

      -- Runs of any schedule (config ones included), so schedule_id is not a foreign key.
      CREATE TABLE schedule_runs (
        ord BIGINT GENERATED ALWAYS AS IDENTITY,
        id TEXT COLLATE "C" PRIMARY KEY,
        schedule_id TEXT COLLATE "C" NOT NULL,
        session_id TEXT COLLATE "C",
        trigger TEXT COLLATE "C" NOT NULL CHECK (trigger IN ('cron', 'manual', 'missed')),
        started_at TEXT COLLATE "C" NOT NULL,
        ended_at TEXT COLLATE "C",
        outcome TEXT COLLATE "C" CHECK (outcome IN ('completed', 'failed', 'timed_out', 'cancelled', 'skipped')),
        stop_reason TEXT COLLATE "C",
        cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
        error TEXT COLLATE "C"
      );
      CREATE INDEX schedule_runs_by_schedule ON schedule_runs (schedule_id, started_at DESC, ord DESC);
      CREATE INDEX schedule_runs_unfinished ON schedule_runs (ended_at) WHERE ended_at IS NULL;
    `,
  },
  {
    version: 2,
    name: 'one run per schedule and due time',
    sql: `
      -- When a cron or missed run was due (ISO 8601 UTC); null for a manual run. Daemons
      -- sharing the database each fire a schedule's timer: the first to insert a (schedule,
      -- due time) runs it, and the others' inserts conflict, so it runs once.
      ALTER TABLE schedule_runs ADD COLUMN due_at TEXT COLLATE "C";
      -- The daemon that recorded the run and runs it: start-up recovery ends only the runs
      -- of daemons that are gone.
      ALTER TABLE schedule_runs ADD COLUMN daemon_id TEXT COLLATE "C";
      CREATE UNIQUE INDEX schedule_runs_once_per_due_time ON schedule_runs (schedule_id, due_at) WHERE due_at IS NOT NULL;
    `,
  },
  {
    version: 3,
    name: 'session updates: the events of running turns, for followers on other daemons',
    sql: `
      -- One row per event a turn showed its followers, numbered per session in the order its
      -- daemon sent them (seq). Other daemons read the rows after their cursor when a NOTIFY
      -- wakes them; a session's turns that ended more than a minute ago are pruned when a
      -- later turn of it ends, and its newest turn's rows always stay.
      CREATE TABLE session_updates (
        session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        turn_id TEXT COLLATE "C" NOT NULL,
        -- The event's type, so turn boundaries are found without parsing events.
        kind TEXT COLLATE "C" NOT NULL,
        -- The daemon that ran the turn (its daemonId): it does not read its own rows back.
        origin TEXT COLLATE "C" NOT NULL,
        event TEXT COLLATE "C" NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq)
      );
      CREATE INDEX session_updates_by_turn ON session_updates (session_id, turn_id);
    `,
  },
  {
    version: 4,
    name: 'daemons and session leases',
    sql: `
      -- The daemons of the cluster; a daemon without a heartbeat for lease_ms is gone.
      CREATE TABLE daemons (
        id TEXT COLLATE "C" PRIMARY KEY,
        host TEXT COLLATE "C" NOT NULL,
        pid INTEGER NOT NULL,
        roots TEXT COLLATE "C" NOT NULL DEFAULT '[]',
        concurrency INTEGER NOT NULL,
        lease_ms INTEGER NOT NULL,
        started_at TIMESTAMPTZ NOT NULL,
        heartbeat_at TIMESTAMPTZ NOT NULL,
        running_turns INTEGER NOT NULL DEFAULT 0
      );

      -- Which daemon runs a session: owner is null once released; epoch only rises, so a
      -- daemon that lost the lease can tell (its writes carry the epoch it claimed).
      -- owner is not a foreign key: a lease outlives a daemon that died without a goodbye.
      CREATE TABLE session_leases (
        session_id TEXT COLLATE "C" PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        owner TEXT COLLATE "C",
        epoch BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX session_leases_by_owner ON session_leases (owner) WHERE owner IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'pending prompts: steers and follow-ups waiting for a running turn',
    sql: `
      -- A steer or follow-up queued for a running turn, stored before its request is
      -- answered; removed when the turn takes it (in the transaction appending it) or drops
      -- it. What a daemon that is gone (daemon_id: no live heartbeat) left here, another
      -- daemon claims (claimed_by), queues as its own turn and removes. ord is the order queued.
      -- daemon_id and claimed_by are not foreign keys: a row outlives a daemon that died.
      CREATE TABLE pending_prompts (
        ord BIGINT GENERATED ALWAYS AS IDENTITY,
        id TEXT COLLATE "C" PRIMARY KEY,
        session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        queue TEXT COLLATE "C" NOT NULL CHECK (queue IN ('steering', 'followUp')),
        content TEXT COLLATE "C" NOT NULL,
        origin TEXT COLLATE "C",
        daemon_id TEXT COLLATE "C" NOT NULL,
        claimed_by TEXT COLLATE "C",
        created_at TEXT COLLATE "C" NOT NULL
      );
      CREATE INDEX pending_prompts_by_session ON pending_prompts (session_id, ord);
    `,
  },
  {
    version: 6,
    name: 'session updates outside a turn: mode, model and settings changes',
    sql: `
      -- A change a session shows its clients outside any turn (its mode, model or a queue's
      -- delivery mode) reaches followers on other daemons as an update without a turn.
      ALTER TABLE session_updates ALTER COLUMN turn_id DROP NOT NULL;
    `,
  },
];

/** The newest PostgreSQL schema version this build knows. */
export const latestPostgresSchemaVersion: number = postgresMigrations[postgresMigrations.length - 1]?.version ?? 0;
