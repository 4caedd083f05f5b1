import type pg from 'pg';
import { toStoreError } from './postgres-errors.js';

/** Runs one statement and returns its rows; every failure is a StoreError naming the store. */
export type PostgresQuery = <Row extends object>(text: string, params?: unknown[]) => Promise<Row[]>;

/** A PostgresQuery on `runner` (the pool, or one client inside a transaction). */
export function queryOn(runner: pg.Pool | pg.ClientBase, where: string): PostgresQuery {
  return async <Row extends object>(text: string, params: unknown[] = []): Promise<Row[]> => {
    try {
      const result = await runner.query(text, params);
      return result.rows as Row[];
    } catch (error) {
      throw toStoreError(error, where);
    }
  };
}

/**
 * Runs `work` in one transaction on a client of its own: committed when it returns,
 * rolled back when it throws (the error passed on as a StoreError).
 */
export async function inTransaction<T>(pool: pg.Pool, where: string, work: (query: PostgresQuery) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toStoreError(error, where);
  }
  const query = queryOn(client, where);
  try {
    await query('BEGIN');
    const result = await work(query);
    await query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw toStoreError(error, where);
  } finally {
    client.release();
  }
}
