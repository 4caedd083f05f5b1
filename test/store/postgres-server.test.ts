import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES, createTestDatabase } from '../support/postgres-server.js';
import { requireProgram } from '../support/required-program.js';

describe.skipIf(!requireProgram(POSTGRES))('the tests’ PostgreSQL server', () => {
  it('gives each test its own empty database on the worker’s server', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      await client.query('CREATE TABLE only_here (x int)');
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'`);
      expect(rows[0]!.n).toBe('1');
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: second });
    await other.connect();
    try {
      const { rows } = await other.query<{ n: string }>(`SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'`);
      expect(rows[0]!.n).toBe('0');
    } finally {
      await other.end();
    }
  });
});
