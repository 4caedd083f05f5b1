import { latestPostgresSchemaVersion } from '../../store/postgres-migrations.js';
import { redactStoreUrl, toStoreError } from '../../store/postgres-errors.js';
import { failCheck, okCheck, type DoctorCheck } from './doctor-check.js';

/** How long the server gets to accept the connection and answer. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * Connects to the configured PostgreSQL store and reads its schema version from
 * `schema_migrations` (the table the daemons' migrations keep). Read only, like the SQLite
 * check: doctor never creates or migrates. A server that cannot be reached, refuses the
 * login or lacks the database fails, as does a schema from a newer agentd.
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
  try {
    await client.connect();
    const { rows: tables } = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    if (tables[0]?.present === true) {
      const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
      version = rows[0]?.version ?? 0;
    } else {
      version = 0;
    }
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
  return okCheck(id, title, `PostgreSQL at ${shown} ${state}`);
}
