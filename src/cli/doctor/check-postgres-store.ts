import type { Client } from 'pg';
import { latestPostgresSchemaVersion } from '../../store/postgres-migrations.js';
import { redactStoreUrl, toStoreError } from '../../store/postgres-errors.js';
import { PROMPT_QUEUE } from '../../daemon/cluster/pg-boss-work-queue.js';
import { showControlCharacters } from '../../config/show-control-characters.js';
import { failCheck, okCheck, type DoctorCheck } from './doctor-check.js';

/** How long the server gets to accept the connection and answer. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * Connects to the configured PostgreSQL store and reads its schema version from
 * `schema_migrations` (the table the daemons' migrations keep). Read only, like the SQLite
 * check: doctor never creates or migrates. A server that cannot be reached, refuses the
 * login or lacks the database fails, as does a schema from a newer agentd. It also lists
 * the daemons sharing the database and the work queue's depth.
 */
export async function checkPostgresStore(url: string, timeoutMs = CONNECT_TIMEOUT_MS): Promise<DoctorCheck> {
  const id = 'store';
  const title = 'session store';
  const shown = redactStoreUrl(url);
  // Loaded only for a PostgreSQL store, as the daemon does.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // A server that drops the connection later must not crash doctor with an unhandled 'error'.
  client.on('error', () => {});
  let version: number;
  let cluster: string[] = [];
  try {
    await client.connect();
    const { rows: tables } = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    if (tables[0]?.present === true) {
      const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
      version = rows[0]?.version ?? 0;
    } else {
      version = 0;
    }
    cluster = await describeCluster(client);
  } catch (error) {
    return failCheck(id, title, toStoreError(error, shown).message, 'start the server, or fix store.url in your config.json (or AGENTD_STORE_URL)');
  } finally {
    await client.end().catch(() => {});
  }
  if (version > latestPostgresSchemaVersion) {
    return failCheck(
      id,
      title,
      `PostgreSQL at ${shown} has schema version ${version}, but this agentd knows versions up to ${latestPostgresSchemaVersion}`,
      'upgrade agentd here (a newer agentd sharing this database migrated it)',
    );
  }
  const state =
    version === 0
      ? `answers; no agentd has used this database yet (the first daemon migrates it to schema version ${latestPostgresSchemaVersion})`
      : `answers, schema version ${version}${version < latestPostgresSchemaVersion ? `; the next daemon started migrates it to version ${latestPostgresSchemaVersion}` : ''}`;
  return okCheck(id, title, [`PostgreSQL at ${shown} ${state}`, ...cluster].join('\n'));
}

/**
 * The daemons registered in the database (alive: a heartbeat within their lease) with
 * their turns and owned sessions, and the prompts waiting in the work queue; nothing for a
 * database no daemon has used yet.
 */
async function describeCluster(client: Client): Promise<string[]> {
  const { rows: present } = await client.query<{ daemons: boolean; jobs: boolean }>(
    "SELECT to_regclass('daemons') IS NOT NULL AS daemons, to_regclass('pgboss.job') IS NOT NULL AS jobs",
  );
  if (present[0]?.daemons !== true) return [];
  const { rows: daemons } = await client.query<{ id: string; host: string; pid: number; roots: string; age_ms: string; lease_ms: number; running_turns: number; owned: string }>(
    `SELECT d.id, d.host, d.pid, d.roots, d.lease_ms, d.running_turns, (EXTRACT(EPOCH FROM (now() - d.heartbeat_at)) * 1000)::bigint AS age_ms,
       (SELECT count(*) FROM session_leases l WHERE l.owner = d.id AND l.expires_at > now()) AS owned
     FROM daemons d ORDER BY d.started_at, d.id`,
  );
  const lines = daemons.map((daemon) => {
    const age = Number(daemon.age_ms);
    const state = age < daemon.lease_ms ? `heartbeat ${(age / 1000).toFixed(1)} s ago` : `gone (no heartbeat for ${Math.round(age / 1000)} s)`;
    return `  ${daemon.id}  ${daemon.host} pid ${daemon.pid}  ${state}  ${daemon.running_turns} turn(s)  ${daemon.owned} session(s) owned  serves ${describeRoots(daemon.roots)}`;
  });
  let waiting = 0;
  if (present[0].jobs) {
    const { rows } = await client.query<{ waiting: string }>("SELECT count(*) AS waiting FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry')", [PROMPT_QUEUE]);
    waiting = Number(rows[0]?.waiting ?? 0);
  }
  return [`${daemons.length} daemon(s) registered; ${waiting} queued prompt(s) waiting`, ...lines];
}

/** A registered daemon's roots (a JSON list, written by registerDaemon) as doctor prints them: every folder when there are none. */
function describeRoots(stored: string): string {
  const roots = JSON.parse(stored) as string[];
  return roots.length === 0 ? 'every folder' : roots.map((root) => showControlCharacters(root)).join(', ');
}
