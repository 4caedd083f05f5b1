import type Database from 'better-sqlite3';
import { type Migration, migrations as defaultMigrations } from './migrations.js';
import { StoreError } from './store-error.js';

/** What `migrateDatabase` did. */
export interface MigrationResult {
  /** Schema version before migrating (0 for a new database). */
  fromVersion: number;
  /** Schema version afterwards. */
  toVersion: number;
  /** Versions applied by this call, in order; empty when already current. */
  applied: number[];
}

/**
 * Brings the database up to the newest migration. Idempotent: applied versions are
 * recorded in `schema_migrations` and skipped. Everything runs in one IMMEDIATE
 * transaction, so two daemons starting at once cannot both apply a step, and a failing
 * step leaves the database exactly as it was. A database migrated by a newer agentd is
 * refused rather than used with a schema this code does not understand.
 */
export function migrateDatabase(
  db: Database.Database,
  migrations: readonly Migration[] = defaultMigrations,
): MigrationResult {
  checkMigrationList(migrations);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const run = db.transaction((): MigrationResult => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
      version: number | null;
    };
    const fromVersion = row.version ?? 0;
    if (fromVersion > latest) {
      throw new StoreError(
        'unsupported_database',
        `database ${db.name} has schema version ${fromVersion}, but this agentd only knows versions up to ${latest}; ` +
          'upgrade agentd, or point AGENTD_HOME at another directory to start a separate database',
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= fromVersion) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    }
    return { fromVersion, toVersion: Math.max(fromVersion, latest), applied };
  });
  return run.immediate();
}

/** A gap or reordering would silently skip a step on some databases; refuse it up front. */
function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `migration "${migration.name}" has version ${migration.version} but is at position ${index + 1}; ` +
          'migration versions must be 1, 2, 3, … in array order',
      );
    }
  });
}
