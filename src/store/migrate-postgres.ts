import type pg from 'pg';
import type { MigrationResult } from './migrate-database.js';
import type { Migration } from './migrations.js';
import { postgresMigrations } from './postgres-migrations.js';
import { StoreError } from './store-error.js';

/** Any fixed number, the same in every agentd: the advisory lock key that serializes migrations. */
const MIGRATION_LOCK_KEY = 0x61676e74;

/**
 * Brings a PostgreSQL database up to the newest migration, in one transaction holding a
 * transaction-level advisory lock: two daemons starting at once on an empty database queue
 * on the lock, the second then sees the versions the first recorded and applies nothing.
 * The lock goes with the transaction (commit, rollback or a dropped connection).
 */
export async function migratePostgres(
  client: pg.ClientBase,
  where: string,
  migrations: readonly Migration[] = postgresMigrations,
): Promise<MigrationResult> {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
    const fromVersion = rows[0]?.version ?? 0;
    if (fromVersion > latest) {
      throw new StoreError(
        'unsupported_database',
        `the PostgreSQL store at ${where} has schema version ${fromVersion}, but this agentd only knows versions up to ${latest}; ` +
          'upgrade agentd, or point store.url at another database',
      );
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= fromVersion) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { fromVersion, toVersion: Math.max(fromVersion, latest), applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
