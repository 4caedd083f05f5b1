import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrateDatabase } from './migrate-database.js';
import { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { Store } from './store.js';
import { StoreError } from './store-error.js';

export interface OpenStoreOptions extends SqliteStoreOptions {
  /**
   * Read the database of a directory another daemon owns (`agentd sessions` while the
   * shared daemon runs): nothing is created, migrated or written. WAL lets it read while
   * the owner writes.
   */
  readOnly?: boolean;
}

/**
 * Opens (creating if needed) the database at `file`, configures it and migrates it.
 * Sessions hold private prompts and file contents, so new directories are 0700 and a new
 * database file is 0600; SQLite gives the -wal and -shm files the database's mode.
 * `:memory:` is accepted for callers that need a throwaway store.
 */
export function openStore(file: string, options: OpenStoreOptions = {}): Store {
  if (options.readOnly) return openReadOnly(file, options);
  const inMemory = file === ':memory:';
  if (!inMemory) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  const db = new Database(file);
  try {
    // https://www.sqlite.org/wal.html: readers never block the writer, and a commit is one
    // append to the WAL. With synchronous=NORMAL a commit survives a process crash (it is
    // in the OS cache) and only the last commits can be lost on power failure, which is
    // the trade-off SQLite recommends for WAL.
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (!inMemory && mode !== 'wal') {
      throw new StoreError(
        'unsupported_database',
        `could not switch ${file} to WAL journaling (got "${String(mode)}"); put the data directory on a local ` +
          'file system, for example by setting AGENTD_HOME',
      );
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Another daemon or a CLI command may hold the write lock briefly; wait instead of failing.
    db.pragma('busy_timeout = 5000');
    migrateDatabase(db);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    // SQLite's messages ("file is not a database") do not say which file.
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      'unsupported_database',
      `cannot open the agentd database ${file}: ${reason}; move the file aside to start a new database`,
      { cause: error },
    );
  }
  return new SqliteStore(db, options);
}

function openReadOnly(file: string, options: SqliteStoreOptions): Store {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError('unsupported_database', `cannot read the agentd database ${file}: ${reason}`, { cause: error });
  }
  return new SqliteStore(db, options);
}
