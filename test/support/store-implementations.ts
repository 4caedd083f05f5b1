import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/store/open-store.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { POSTGRES, createTestDatabase } from './postgres-server.js';
import { requireProgram } from './required-program.js';

/** One empty database of an implementation, opened as often as a test likes (reopening is a restart). */
export interface StoreDatabase {
  open(options?: { now?: () => Date }): Promise<Store>;
  /** Runs SQL on a connection of its own, beside the store's (counting rows, installing a trigger). */
  sql(text: string): Promise<Array<Record<string, unknown>>>;
  /** Rows in `table`, read on a connection of its own. */
  countRows(table: string): Promise<number>;
  /** What a daemon's environment needs to use this database (AGENTD_STORE_URL for PostgreSQL). */
  daemonEnv: Record<string, string>;
  dispose(): Promise<void>;
}

/** A store implementation the shared store tests run against. */
export interface StoreImplementation {
  name: 'sqlite' | 'postgres';
  /** False when it cannot run here (requireProgram has said why; under CI it registers a failing test). */
  available(): boolean;
  /** A fresh database; `sqliteFile` puts SQLite's where a daemon will look (its data directory). */
  create(options?: { sqliteFile?: string }): Promise<StoreDatabase>;
}

const sqlite: StoreImplementation = {
  name: 'sqlite',
  available: () => true,
  async create(options = {}) {
    const dir = options.sqliteFile === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-')) : undefined;
    const file = options.sqliteFile ?? path.join(dir!, 'data', 'agentd.db');
    const sql = async (text: string): Promise<Array<Record<string, unknown>>> => {
      const db = new Database(file);
      try {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all() as Array<Record<string, unknown>>;
        statement.run();
        return [];
      } finally {
        db.close();
      }
    };
    return {
      open: async (options = {}) => openStore(file, options),
      sql,
      countRows: async (table) => Number((await sql(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n),
      daemonEnv: {},
      dispose: async () => {
        if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StoreImplementation = {
  name: 'postgres',
  available: () => requireProgram(POSTGRES),
  async create() {
    const url = await createTestDatabase();
    const sql = async (text: string): Promise<Array<Record<string, unknown>>> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows as Array<Record<string, unknown>>;
      } finally {
        await client.end();
      }
    };
    return {
      open: async (options = {}) => openPostgresStore(url, { ...options, maxConnections: 4 }),
      sql,
      countRows: async (table) => Number((await sql(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n),
      daemonEnv: { AGENTD_STORE_URL: url },
      // The database goes with the worker's server.
      dispose: async () => undefined,
    };
  },
};

/** Every implementation of `Store`, for `describe.each(STORE_IMPLEMENTATIONS)`. */
export const STORE_IMPLEMENTATIONS: readonly StoreImplementation[] = [sqlite, postgres];
