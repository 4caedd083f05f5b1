import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { migrations } from '../../store/migrations.js';
import { failCheck, okCheck, warnCheck, type DoctorCheck } from './doctor-check.js';

/** How long to wait for a running daemon's write lock before giving up on the read. */
const BUSY_TIMEOUT_MS = 2000;

/**
 * Opens the session database read-only (doctor diagnoses; it never creates or migrates
 * anything) and reads its schema version from `schema_migrations`, the table
 * `migrateDatabase` keeps. A database from a newer agentd, or a file that is not a
 * database, fails: the daemon would refuse to start on it.
 */
export function checkStore(databaseFile: string): DoctorCheck {
  const id = 'store';
  const title = 'session store';
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  let mode: number;
  try {
    mode = statSync(databaseFile).mode & 0o777;
  } catch {
    return okCheck(id, title, `${databaseFile} (not created yet; the daemon creates it on first start, schema version ${latest})`);
  }
  let version: number;
  let journal: string;
  try {
    const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      journal = String(db.pragma('journal_mode', { simple: true }));
      version = readSchemaVersion(db);
    } finally {
      db.close();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return failCheck(id, title, `${databaseFile} cannot be opened: ${reason}`, `move ${databaseFile} aside (the daemon then starts a new, empty database), or set AGENTD_HOME to another folder`);
  }
  if (version > latest) {
    return failCheck(id, title, `${databaseFile} has schema version ${version}, but this agentd knows versions up to ${latest}`, 'upgrade agentd (a newer version wrote this database)');
  }
  if ((mode & 0o077) !== 0) {
    return warnCheck(id, title, `${databaseFile} (schema version ${version}) can be read by other users (mode ${mode.toString(8)}); it holds your sessions`, `chmod 600 ${databaseFile}*`);
  }
  if (journal !== 'wal') {
    return warnCheck(id, title, `${databaseFile} (schema version ${version}) uses the "${journal}" journal, not WAL`, 'start the daemon once (it switches the database to WAL); if it cannot, put the data directory on a local file system');
  }
  const upgrade = version < latest ? `; the daemon migrates it to version ${latest} on its next start` : '';
  return okCheck(id, title, `${databaseFile} opens, schema version ${version}${upgrade}`);
}

/** The newest applied migration; 0 for a database no agentd has migrated. */
function readSchemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}
