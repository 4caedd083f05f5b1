import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/store/migrate-database.js';
import { latestSchemaVersion, migrations } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open-store.js';
import { StoreError } from '../../src/store/store-error.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function appliedVersions(file: string): Array<{ version: number; name: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as Array<{
      version: number;
      name: string;
    }>;
  } finally {
    db.close();
  }
}

describe('migrateDatabase', () => {
  it('applies every migration once, records it, and is a no-op the second time', () => {
    const file = path.join(dir, 'agentd.db');
    const db = new Database(file);
    const first = migrateDatabase(db);
    const second = migrateDatabase(db);
    db.close();

    expect(first).toEqual({
      fromVersion: 0,
      toVersion: latestSchemaVersion,
      applied: migrations.map((m) => m.version),
    });
    expect(second).toEqual({ fromVersion: latestSchemaVersion, toVersion: latestSchemaVersion, applied: [] });
    expect(appliedVersions(file)).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
  });

  it('applies only the steps a database is missing', () => {
    const db = new Database(path.join(dir, 'agentd.db'));
    const steps = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER)' },
    ];
    expect(migrateDatabase(db, steps.slice(0, 1)).applied).toEqual([1]);
    expect(migrateDatabase(db, steps).applied).toEqual([2]);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all();
    db.close();
    expect(tables).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'schema_migrations' }]);
  });

  it('rolls back every step of a run when one fails', () => {
    const db = new Database(path.join(dir, 'agentd.db'));
    const steps = [
      { version: 1, name: 'good', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'bad', sql: 'CREATE TABLE a (x INTEGER)' },
    ];
    expect(() => migrateDatabase(db, steps)).toThrow(/already exists/);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all();
    db.close();
    expect(tables).toEqual([]);
  });

  it('refuses migration lists with gaps', () => {
    const db = new Database(':memory:');
    expect(() => migrateDatabase(db, [{ version: 2, name: 'skips one', sql: 'SELECT 1' }])).toThrow(
      /version 2 but is at position 1/,
    );
    db.close();
  });

  it('refuses a database written by a newer agentd, naming both versions', () => {
    const file = path.join(dir, 'agentd.db');
    openStore(file).close();
    const db = new Database(file);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      latestSchemaVersion + 1,
      'from the future',
      new Date().toISOString(),
    );
    db.close();

    let caught: unknown;
    try {
      openStore(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect((caught as StoreError).code).toBe('unsupported_database');
    expect((caught as StoreError).message).toContain(
      `has schema version ${latestSchemaVersion + 1}, but this agentd only knows versions up to ${latestSchemaVersion}`,
    );
  });
});
